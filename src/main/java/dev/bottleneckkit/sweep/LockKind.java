package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * One lock, one holder at a time, the other request threads blocked on it
 * ({@link DemandRules#lock}).
 */
final class LockKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.LOCK;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(DemandRules::lock);
	}

}
