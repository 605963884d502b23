package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * CPU: the service's container at its limit, or the machine's cores
 * ({@link DemandRules#cpu}), asked last: the cores over the CPU of a request. A
 * container's own limit is its knob ({@code where} "service"); the machine's cores have
 * none.
 */
final class CpuKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CPU;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(DemandRules::cpu);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return Demands.cpuBound(step);
	}

	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.filter("service"::equals)
			.map((where) -> new Knob.Family(0.1, (value) -> Knob.of(Verdict.count(value) + " CPUs", 1,
					(container) -> container.withCpuLimit(value))));
	}

}
