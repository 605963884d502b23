package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;
import dev.bottleneckkit.sweep.internal.analysis.ServerFull;

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
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of((at) -> ServerFull.capped(SERVER, at));
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

}
