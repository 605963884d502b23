package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
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
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.DumpedPool;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * Hikari's JDBC pool: from its meters ({@code hikaricp.connections.*}), else from where
 * request threads wait in dumps. A request holds it for its uses × the hold of a use
 * where Hikari's timer reads them ({@link Demand}), else W₁; its knob is
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
			Optional<Demand> demand = demand(at.last(), full.pool().limit());
			return at.capped(Resource.HIKARI_POOL, full.saw() + demand.map(Demand::aRequest).orElse(""),
					demand.map(Demand::model)
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
		return Optional.of(demand(at.last(), max.getAsDouble())
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
			.map((step) -> demand(step, 1).map(Demand::model))
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

	/**
	 * Hikari's pool at {@code limit} connections over {@code step}: the uses a request
	 * makes and the model whose hold is the connection-seconds a request spends in it
	 * ({@link Demand}). Empty when the step did not read the usage timer.
	 */
	static Optional<Demand> demand(Step step, double limit) {
		GaugeTimeline meters = step.service();
		return meters.meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES)
			.map((use) -> Demand.of(limit, use, usesOfARequest(meters.rate(Gauge.HIKARI_USES), step.throughput())));
	}

	/**
	 * What a request demands of a pool whose own timer the service publishes (Hikari's
	 * {@code hikaricp.connections.usage}): not one hold, but the uses a request makes
	 * times the hold of a use. A route that counts its rows and then reads a page in two
	 * transactions, a lazy load, an N+1: each takes the pool again. The pool serves at
	 * most {@code limit / (uses × hold)} requests a second.
	 *
	 * <p>
	 * Both figures come from the timer over one step: its total seconds over its count
	 * give the hold of a use, its count a second over the requests the step served a
	 * second give the uses of a request. A count within {@value #WHOLE} of a whole number
	 * is that number (a route's uses are whole; a health check or a pool's own
	 * housekeeping adds a few); else it is kept to a tenth, as for an N+1 whose N varies.
	 *
	 * @param uses how many times a request takes the pool
	 * @param model the pool's limit over the hold of a request, uses × the hold of a use
	 */
	record Demand(double uses, Verdict.Model model) {

		/** A pool at {@code limit} whose requests take it {@code uses} times. */
		static Demand of(double limit, Duration use, double uses) {
			if (uses == 1) {
				return new Demand(1, new Verdict.Model(limit, "connections", use, "a use"));
			}
			return new Demand(uses,
					new Verdict.Model(limit, "connections", Duration.ofNanos(Math.round(use.toNanos() * uses)),
							String.format(Locale.ROOT, "%s uses × %.3f s", Knobs.count(uses), use.toNanos() / 1e9)));
		}

		/**
		 * ", 2 uses a request" where a request takes the pool more than once, else "".
		 */
		String aRequest() {
			return (this.uses == 1) ? "" : ", " + Knobs.count(this.uses) + " uses a request";
		}

	}

	/**
	 * How near a whole number a request's uses count as that number.
	 */
	static final double WHOLE = 0.15;

	/**
	 * A request's uses of the pool: its uses a second over the requests served a second,
	 * whole when near a whole number (see the class), else to a tenth, at least a tenth;
	 * one when either rate is not read.
	 */
	static double usesOfARequest(OptionalDouble usesASecond, double requestsASecond) {
		if (usesASecond.isEmpty() || !(requestsASecond > 0) || !(usesASecond.getAsDouble() > 0)) {
			return 1;
		}
		double uses = usesASecond.getAsDouble() / requestsASecond;
		double whole = Math.rint(uses);
		if (whole >= 1 && Math.abs(uses - whole) <= WHOLE) {
			return whole;
		}
		return Math.max(0.1, Math.rint(uses * 10) / 10);
	}

}
