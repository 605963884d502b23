package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * Tomcat's platform request threads: from its meters ({@code tomcat.threads.*}), else a
 * worker pool in dumps no other server claims. Held W₁ a request, turned by
 * {@code server.tomcat.threads.max}.
 */
public final class TomcatThreadsKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.TOMCAT_THREADS, Gauge.TOMCAT_MAX,
			Gauge.TOMCAT_BUSY, "Tomcat threads (%.0f configured)", "threads");

	/**
	 * Tomcat's pool in dumps: any pool, claimed last, when no server before it in
	 * {@link ResourceKinds#ALL} claims it by its frames or its name.
	 */
	private static final DumpedServer SERVER = new DumpedServer(Resource.TOMCAT_THREADS, (pool) -> true,
			(pool) -> "Tomcat thread pool", false,
			List.of("org.apache.catalina.core.ApplicationFilterChain", "jakarta.servlet.http.HttpServlet.service",
					"javax.servlet.http.HttpServlet.service"),
			List.of("java.util.concurrent.ThreadPoolExecutor.getTask", "org.apache.tomcat.util.threads.TaskQueue"));

	@Override
	public Optional<DumpedServer> server() {
		return Optional.of(SERVER);
	}

	@Override
	public Resource resource() {
		return Resource.TOMCAT_THREADS;
	}

	/**
	 * Tomcat's platform threads all busy, from its meters; its connections beyond them
	 * wait.
	 */
	@Override
	public Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		OptionalDouble busy = gauges.max(Gauge.TOMCAT_BUSY);
		OptionalDouble max = gauges.max(Gauge.TOMCAT_MAX);
		if (busy.isEmpty() || max.isEmpty() || busy.getAsDouble() < 1 || busy.getAsDouble() < max.getAsDouble()) {
			return Optional.empty();
		}
		int connections = (int) Math.round(gauges.max(Gauge.TOMCAT_CONNECTIONS).orElse(0));
		Pool pool = new Pool(Gauge.TOMCAT_BUSY.label(), (int) Math.round(busy.getAsDouble()),
				(int) Math.round(max.getAsDouble()), Math.max(0, connections - (int) Math.round(max.getAsDouble())));
		return Optional.of(new FullPool(pool,
				String.format(Locale.ROOT, "Tomcat threads %d/%d busy", pool.inUse(), pool.limit()), "threads"));
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
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(new KnobFamily(1, (value) -> Knob.springProperty("Tomcat threads " + Knobs.count(value),
				"server.tomcat.threads.max", (int) Math.round(value), 1)));
	}

}
