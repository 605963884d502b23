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
 * A reactive server's event loops held by a blocking call, Vert.x's
 * ({@code vert.x-eventloop-thread-*}) or Reactor Netty's ({@code reactor-http-*}), by
 * their names in dumps: every loop serving a request, none back in its selector. The
 * loops' name is in {@code where}, and the knob is the server's it names.
 */
public final class EventLoopsKind implements ResourceKind {

	/** The name of a Vert.x event loop thread without its number. */
	static final String EVENT_LOOP = "vert.x-eventloop-thread-";

	/**
	 * How Reactor Netty's event loop threads' names begin ({@code reactor-http-nio-3},
	 * {@code reactor-http-epoll-3}).
	 */
	static final String REACTOR_EVENT_LOOP = "reactor-http-";

	static final DumpedServer SERVER = new DumpedServer(Resource.EVENT_LOOPS,
			(pool) -> pool.name().equals(EVENT_LOOP) || pool.name().startsWith(REACTOR_EVENT_LOOP),
			(pool) -> pool.name().startsWith(REACTOR_EVENT_LOOP) ? "Reactor Netty event loops held by a blocking call"
					: "Vert.x event loops",
			true,
			List.of("org.springframework.web.reactive.result.method.InvocableHandlerMethod",
					"org.springframework.web.reactive.DispatcherHandler"),
			List.of("io.netty.channel.nio.NioEventLoop.select", "io.netty.channel.epoll.EpollEventLoop.epollWait",
					"io.netty.channel.nio.NioIoHandler.select", "io.netty.channel.epoll.EpollIoHandler.epollWait",
					"io.netty.channel.epoll.Native.epollWait", "io.netty.channel.epoll.Native.epollBusyWait"));

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.EVENT_LOOPS;
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		if (verdict.where().filter((loops) -> loops.startsWith(REACTOR_EVENT_LOOP)).isPresent()) {
			return Optional.of(new KnobFamily(1, (value) -> Knob.of("event loops " + Knobs.count(value), 1,
					(container) -> container.withJvmOptions("-Dreactor.netty.ioWorkerCount=" + Math.round(value)))));
		}
		return Optional.of(KnobFamily.quarkus("event loops ", "QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE"));
	}

}
