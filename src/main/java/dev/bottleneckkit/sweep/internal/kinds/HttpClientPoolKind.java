package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.DumpedPool;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * Apache HttpClient 5's connection pool: from its meters
 * ({@code httpcomponents.httpclient.pool.*}), else from where request threads wait in
 * dumps; held W₁ a request. Its size is the team's code's, so it has no knob of the
 * kit's.
 */
public final class HttpClientPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.HTTP_CLIENT_POOL,
			Gauge.HTTP_POOL_MAX_PER_ROUTE, Gauge.HTTP_POOL_LEASED, "HttpClient pool (%.0f per route)", "connections");

	@Override
	public Resource resource() {
		return Resource.HTTP_CLIENT_POOL;
	}

	/**
	 * The pool of a service that publishes no pool metrics (Spring Boot binds none), read
	 * from thread dumps: request threads parked in the pool's lease (all of its frames)
	 * wait for a connection, while those inside {@code MainClientExec} hold one. A thread
	 * leasing one (in the pool's lock, not yet parked in its future) or handing one back,
	 * which a waiter may already have taken, holds none at that instant.
	 */
	public static final DumpedPool DUMPED = new DumpedPool(Resource.HTTP_CLIENT_POOL, "HttpClient pool", "its lease",
			List.of("org.apache.hc.core5.concurrent.BasicFuture.get",
					"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint"),
			List.of("org.apache.hc.client5.http.impl.classic.MainClientExec",
					"org.apache.hc.client5.http.impl.classic.ConnectExec"),
			List.of("org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint",
					"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.releaseEndpoint",
					"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.discardEndpoint",
					"org.apache.hc.core5.pool.StrictConnPool.release", "org.apache.hc.core5.pool.LaxConnPool.release"),
			"HttpClient 5's pool meters", "httpcomponents.httpclient.pool.*",
			"Spring Boot binds none; PoolingHttpClientConnectionManagerMetricsBinder on the connection manager does");

	@Override
	public Optional<DumpedPool> dumped() {
		return Optional.of(DUMPED);
	}

	@Override
	public Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		return Pool.atItsLimit(gauges, Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_MAX_PER_ROUTE, Gauge.HTTP_POOL_PENDING)
			.map((pool) -> new FullPool(pool, String.format(Locale.ROOT,
					"HttpClient pool %d/%d leased (per route), %d pending", pool.inUse(), pool.limit(), pool.pending()),
					"connections"));
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

}
