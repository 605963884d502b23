package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The downstream the route calls, its own resource saturated
 * ({@link DemandRules#downstream}): the stand-in's threads over its hold, read on a step.
 */
final class DownstreamKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.DOWNSTREAM;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(DemandRules::downstream);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return Demands.downstreamBound(step);
	}

}
