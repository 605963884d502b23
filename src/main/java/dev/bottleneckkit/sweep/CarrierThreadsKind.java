package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The virtual-thread scheduler's carriers held by pinned virtual threads: the carriers
 * over the pinned time of a request, read from JFR's pinned events
 * ({@link DemandRules#carriers}); turned by
 * {@code jdk.virtualThreadScheduler.parallelism}.
 */
final class CarrierThreadsKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CARRIER_THREADS;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(DemandRules::carriers);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return Demands.carriersBound(step);
	}

	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional
			.of(new Knob.Family(1, (value) -> Knob.of("carriers " + Verdict.count(value), 1, (container) -> container
				.withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + Math.round(value)))));
	}

}
