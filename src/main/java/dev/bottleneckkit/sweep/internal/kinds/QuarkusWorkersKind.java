package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;

/**
 * Quarkus' worker pool ({@code executor-thread-*}), where its blocking REST routes run:
 * by its threads in dumps (RESTEasy Reactive's frames, not an event loop's name), turned
 * by {@code QUARKUS_THREAD_POOL_MAX_THREADS}.
 */
public final class QuarkusWorkersKind implements ResourceKind {

	static final DumpedServer SERVER = new DumpedServer(Resource.QUARKUS_WORKER_THREADS,
			(pool) -> pool.serving().get(0).hasFrame("org.jboss.resteasy.reactive"), (pool) -> "Quarkus worker pool",
			false, List.of("org.jboss.resteasy.reactive.server.handlers.InvocationHandler.handle"),
			List.of("org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode.park",
					"org.jboss.threads.EnhancedQueueExecutor.park"));

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.QUARKUS_WORKER_THREADS;
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(KnobFamily.quarkus("Quarkus workers ", "QUARKUS_THREAD_POOL_MAX_THREADS"));
	}

}
