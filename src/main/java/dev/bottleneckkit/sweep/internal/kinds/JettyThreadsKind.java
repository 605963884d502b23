package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;

/**
 * Jetty's worker pool ({@code qtp…-*}), by its threads' frames in dumps; turned by
 * {@code server.jetty.threads.max}.
 */
public final class JettyThreadsKind implements ResourceKind {

	static final DumpedServer SERVER = new DumpedServer(Resource.JETTY_THREADS,
			(pool) -> pool.serving().get(0).hasFrame("org.eclipse.jetty"), (pool) -> "Jetty worker pool", false,
			List.of("org.eclipse.jetty.server.Server.handle"),
			List.of("org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.idleJobPoll",
					"org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait"));

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.JETTY_THREADS;
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	/**
	 * Jetty's acceptor, selector and reserved threads come out of the same pool: the
	 * serving threads are raised, the others kept.
	 */
	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		int limit = (int) Math.round(verdict.model().limit());
		int others = Knob.configured(service, "SERVER_JETTY_THREADS_MAX").orElse(limit) - limit;
		return Optional.of(new KnobFamily(1, (value) -> Knob.springProperty("Jetty threads " + Knobs.count(value),
				"server.jetty.threads.max", (int) Math.round(value) + others, 1)));
	}

}
