package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Apache HttpClient 5's connection pool: from its meters
 * ({@code httpcomponents.httpclient.pool.*}), else from where request threads wait in
 * dumps; held W₁ a request. Its size is the team's code's, so it has no knob of the
 * kit's.
 */
final class HttpClientPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.HTTP_CLIENT_POOL,
			Gauge.HTTP_POOL_MAX_PER_ROUTE, Gauge.HTTP_POOL_LEASED, "HttpClient pool (%.0f per route)", "connections");

	@Override
	public Resource resource() {
		return Resource.HTTP_CLIENT_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::httpClient, LimitRules::httpClientFromDump);
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
