package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.DumpedPool;
import dev.bottleneckkit.sweep.internal.analysis.Pool;
import dev.bottleneckkit.sweep.internal.analysis.PoolUses;

/**
 * Hikari's JDBC pool: from its meters ({@code hikaricp.connections.*}), else from where
 * request threads wait in dumps. A request holds it for its uses × the hold of a use
 * where Hikari's timer reads them ({@link PoolUses}), else W₁; its knob is
 * {@code spring.datasource.hikari.maximum-pool-size}.
 */
public final class HikariPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.HIKARI_POOL, Gauge.HIKARI_MAX,
			Gauge.HIKARI_ACTIVE, "Hikari pool (%.0f connections)", "connections");

	@Override
	public Resource resource() {
		return Resource.HIKARI_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(this::fromMeters, DUMPED::capped);
	}

	/**
	 * Hikari without its meters, from thread dumps: request threads in
	 * {@code HikariPool.getConnection} parked in {@code ConcurrentBag.borrow} wait for a
	 * connection; those using a Hikari proxy hold one, those borrowing or handing one
	 * back hold none at that instant.
	 */
	public static final DumpedPool DUMPED = new DumpedPool(Resource.HIKARI_POOL, "Hikari pool", "its borrow",
			List.of("com.zaxxer.hikari.util.ConcurrentBag.borrow", "com.zaxxer.hikari.pool.HikariPool.getConnection"),
			List.of("com.zaxxer.hikari.pool.HikariProxyPreparedStatement",
					"com.zaxxer.hikari.pool.HikariProxyStatement", "com.zaxxer.hikari.pool.HikariProxyConnection",
					"com.zaxxer.hikari.pool.HikariProxyCallableStatement",
					"com.zaxxer.hikari.pool.HikariProxyResultSet"),
			List.of("com.zaxxer.hikari.pool.HikariPool.getConnection", "com.zaxxer.hikari.pool.ProxyConnection.close",
					"com.zaxxer.hikari.pool.HikariPool.recycle"),
			"Hikari's meters", "hikaricp.connections.*",
			"Spring Boot binds them to a HikariDataSource it created, not to one wrapped or built by hand");

	@Override
	public Optional<DumpedPool> dumped() {
		return Optional.of(DUMPED);
	}

	/**
	 * From its meters: every connection active, threads pending; a request holds it for
	 * its uses × the hold of a use where Hikari's timer reads them, else W₁.
	 */
	private Optional<Capped> fromMeters(AtCap at) {
		return fullByItsMeters(at.last().service()).map((full) -> {
			Optional<PoolUses.Demand> demand = PoolUses.hikari(at.last(), full.pool().limit());
			return at.capped(Resource.HIKARI_POOL, full.saw() + demand.map(PoolUses.Demand::aRequest).orElse(""),
					demand.map(PoolUses.Demand::model)
						.orElseGet(() -> new Verdict.Model(full.pool().limit(), full.units(), at.w1(), "W₁")),
					Optional.empty(), full.pool().readings());
		});
	}

	@Override
	public Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		return Pool.atItsLimit(gauges, Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING)
			.map((pool) -> new FullPool(pool, String.format(Locale.ROOT, "Hikari pool %d/%d active, %d pending",
					pool.inUse(), pool.limit(), pool.pending()), "connections"));
	}

	@Override
	public Optional<Verdict.Bound> bound(AtCap at) {
		OptionalDouble max = LIMIT.used(at);
		if (max.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(PoolUses.hikari(at.last(), max.getAsDouble())
			.map((demand) -> LIMIT.at(max.getAsDouble(), demand.model().hold(), demand.model().holdIs()))
			.orElseGet(() -> LIMIT.at(max.getAsDouble(), at.w1(), "W₁")));
	}

	@Override
	public Optional<ConfiguredLimit> configured() {
		return Optional.of(LIMIT);
	}

	/**
	 * Hikari's model in the first step that used the pool, at one connection: what a
	 * request held it for there (its uses × the hold of a use).
	 */
	@Override
	public Optional<Verdict.Model> atOneUser(AtCap at) {
		return at.readings()
			.steps()
			.stream()
			.map((step) -> PoolUses.hikari(step, 1).map(PoolUses.Demand::model))
			.flatMap(Optional::stream)
			.findFirst();
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
		return Optional.of(new KnobFamily(1, (value) -> Knob.springProperty("Hikari " + Knobs.count(value),
				"spring.datasource.hikari.maximum-pool-size", (int) Math.round(value), 1)));
	}

}
