package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A client's connection pool of any library, seen from outside: the service's TCP
 * connections to one destination flat while users doubled
 * ({@link LimitRules#connectionPool}), asked after every rule that reads a cap upstream
 * of the client.
 */
final class ConnectionPoolKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CONNECTION_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::connectionPool);
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

}
