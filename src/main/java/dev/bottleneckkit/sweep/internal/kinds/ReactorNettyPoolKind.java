package dev.bottleneckkit.sweep.internal.kinds;

import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * Reactor Netty's connection pool (WebClient), from its meters
 * ({@code reactor.netty.connection.provider.*}); held W₁ a request, turned by
 * {@code -Dreactor.netty.pool.maxConnections}.
 */
public final class ReactorNettyPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.REACTOR_NETTY_POOL, Gauge.REACTOR_MAX,
			Gauge.REACTOR_ACTIVE, "Reactor Netty pool (%.0f connections)", "connections");

	@Override
	public Resource resource() {
		return Resource.REACTOR_NETTY_POOL;
	}

	@Override
	public Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		return Pool.atItsLimit(gauges, Gauge.REACTOR_ACTIVE, Gauge.REACTOR_MAX, Gauge.REACTOR_PENDING)
			.map((pool) -> new FullPool(pool, String.format(Locale.ROOT, "Reactor Netty pool %d/%d active, %d pending",
					pool.inUse(), pool.limit(), pool.pending()), "connections"));
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
	public boolean connectionsAgree() {
		return true;
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(new KnobFamily(1, (value) -> Knob.of("Reactor Netty pool " + Knobs.count(value), 1,
				(container) -> container.withJvmOptions("-Dreactor.netty.pool.maxConnections=" + Math.round(value)))));
	}

}
