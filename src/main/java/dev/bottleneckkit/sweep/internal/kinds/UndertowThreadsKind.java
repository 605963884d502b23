package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;

/** Undertow's (XNIO) worker pool, by its threads' frames in dumps. */
public final class UndertowThreadsKind implements ResourceKind {

	static final DumpedServer SERVER = new DumpedServer(Resource.UNDERTOW_THREADS,
			(pool) -> pool.serving().get(0).hasFrame("io.undertow"), (pool) -> "Undertow worker pool", false,
			List.of("io.undertow.server.Connectors.executeRootHandler"),
			List.of("org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode.park",
					"org.jboss.threads.EnhancedQueueExecutor.park"));

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.UNDERTOW_THREADS;
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

}
