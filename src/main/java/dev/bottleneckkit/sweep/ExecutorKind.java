package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The service's own thread pool, every thread busy with request threads waiting on its
 * work ({@link OwnPools}; a Resilience4j thread-pool bulkhead among them is named a
 * {@link BulkheadKind bulkhead}). Its size is the team's code's: no knob of the kit's.
 */
final class ExecutorKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.EXECUTOR;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(OwnPools::ownPool);
	}

}
