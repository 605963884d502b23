package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A reactive server's event loops held by a blocking call, Vert.x's
 * ({@code vert.x-eventloop-thread-*}) or Reactor Netty's ({@code reactor-http-*}), by
 * their names in dumps: every loop serving a request, none back in its selector. The
 * loops' name is in {@code where}, and the knob is the server's it names.
 */
final class EventLoopsKind implements ResourceKind {

	static final DumpedServer SERVER = new DumpedServer(Resource.EVENT_LOOPS,
			(pool) -> pool.name().equals(ThreadDumps.EVENT_LOOP)
					|| pool.name().startsWith(ThreadDumps.REACTOR_EVENT_LOOP),
			(pool) -> pool.name().startsWith(ThreadDumps.REACTOR_EVENT_LOOP)
					? "Reactor Netty event loops held by a blocking call" : "Vert.x event loops",
			true);

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.EVENT_LOOPS;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of((at) -> LimitRules.workerPoolFromDump(at, SERVER));
	}

	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		if (verdict.where().filter((loops) -> loops.startsWith(ThreadDumps.REACTOR_EVENT_LOOP)).isPresent()) {
			return Optional.of(new Knob.Family(1, (value) -> Knob.of("event loops " + Verdict.count(value), 1,
					(container) -> container.withJvmOptions("-Dreactor.netty.ioWorkerCount=" + Math.round(value)))));
		}
		return Optional.of(Knob.Family.quarkus("event loops ", "QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE"));
	}

}
