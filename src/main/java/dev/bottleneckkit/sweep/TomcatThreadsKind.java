package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Tomcat's platform request threads: from its meters ({@code tomcat.threads.*}), else a
 * worker pool in dumps no other server claims. Held W₁ a request, turned by
 * {@code server.tomcat.threads.max}.
 */
final class TomcatThreadsKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.TOMCAT_THREADS, Gauge.TOMCAT_MAX,
			Gauge.TOMCAT_BUSY, "Tomcat threads (%.0f configured)", "threads");

	/**
	 * Tomcat's pool in dumps: any pool, claimed last, when no server before it in
	 * {@link ResourceKinds#ALL} claims it by its frames or its name.
	 */
	private static final DumpedServer SERVER = new DumpedServer(Resource.TOMCAT_THREADS, (pool) -> true,
			(pool) -> "Tomcat thread pool", false);

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.TOMCAT_THREADS;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::tomcatThreads, (at) -> LimitRules.workerPoolFromDump(at, SERVER));
	}

	@Override
	public Optional<ConfiguredLimit> configured() {
		return Optional.of(LIMIT);
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(new Knob.Family(1, (value) -> Knob.springProperty("Tomcat threads " + Verdict.count(value),
				"server.tomcat.threads.max", (int) Math.round(value), 1)));
	}

}
