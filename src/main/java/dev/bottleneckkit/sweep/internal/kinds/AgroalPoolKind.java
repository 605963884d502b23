package dev.bottleneckkit.sweep.internal.kinds;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.DumpedPool;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * Agroal's JDBC pool (Quarkus' datasource): from its meters ({@code agroal.*}), else from
 * where request threads wait in dumps; turned by
 * {@code QUARKUS_DATASOURCE_JDBC_MAX_SIZE}.
 */
public final class AgroalPoolKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.AGROAL_POOL;
	}

	/**
	 * Agroal without its meters (Quarkus binds them only with
	 * {@code quarkus.datasource.metrics.enabled=true}), from thread dumps: request
	 * threads parked in {@code ConnectionPool.getConnection} wait for a connection; those
	 * in Agroal's statement or connection wrappers hold one.
	 */
	static final DumpedPool DUMPED = new DumpedPool(Resource.AGROAL_POOL, "Agroal pool", "its getConnection",
			List.of("io.agroal.pool.ConnectionPool.getConnection",
					"io.agroal.pool.ConnectionPool.handlerFromSharedCache", "jdk.internal.misc.Unsafe.park"),
			List.of("io.agroal.pool.wrapper.StatementWrapper", "io.agroal.pool.wrapper.PreparedStatementWrapper",
					"io.agroal.pool.wrapper.ConnectionWrapper", "io.agroal.pool.wrapper.CallableStatementWrapper",
					"io.agroal.pool.wrapper.ResultSetWrapper"),
			List.of("io.agroal.pool.ConnectionPool.getConnection",
					"io.agroal.pool.ConnectionPool.returnConnectionHandler",
					"io.agroal.pool.wrapper.ConnectionWrapper.close"),
			"Agroal's meters", "agroal.*", "Quarkus binds them with quarkus.datasource.metrics.enabled=true");

	@Override
	public Optional<DumpedPool> dumped() {
		return Optional.of(DUMPED);
	}

	/**
	 * From its meters: threads waited for a connection while the most connections in use
	 * reached their high-water mark. Agroal publishes no maximum size; a pool short of
	 * its size lends an idle or a new connection at once, so one that made threads wait
	 * was at it.
	 */
	@Override
	public Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		OptionalDouble used = gauges.max(Gauge.AGROAL_ACTIVE);
		OptionalDouble most = gauges.max(Gauge.AGROAL_MAX_USED);
		OptionalDouble waiting = gauges.max(Gauge.AGROAL_AWAITING);
		if (used.isEmpty() || most.isEmpty() || waiting.isEmpty() || waiting.getAsDouble() < 1 || most.getAsDouble() < 1
				|| used.getAsDouble() < most.getAsDouble()) {
			return Optional.empty();
		}
		Map<String, String> more = new LinkedHashMap<>();
		more.put("limit", "the most connections ever in use (agroal.max.used.count): Agroal publishes no maximum size");
		Pool pool = new Pool(Gauge.AGROAL_ACTIVE.label(), (int) Math.round(used.getAsDouble()),
				(int) Math.round(most.getAsDouble()), (int) Math.round(waiting.getAsDouble()), more);
		return Optional.of(new FullPool(pool, String.format(Locale.ROOT, "Agroal pool %d/%d active, %d awaiting",
				pool.inUse(), pool.limit(), pool.pending()), "connections"));
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
		return Optional.of(KnobFamily.quarkus("Agroal ", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE"));
	}

}
