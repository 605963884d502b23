package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Reactor Netty's connection pool (WebClient), from its meters
 * ({@code reactor.netty.connection.provider.*}); held W₁ a request, turned by
 * {@code -Dreactor.netty.pool.maxConnections}.
 */
final class ReactorNettyPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.REACTOR_NETTY_POOL, Gauge.REACTOR_MAX,
			Gauge.REACTOR_ACTIVE, "Reactor Netty pool (%.0f connections)", "connections");

	@Override
	public Resource resource() {
		return Resource.REACTOR_NETTY_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::reactorNetty);
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
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(new Knob.Family(1, (value) -> Knob.of("Reactor Netty pool " + Verdict.count(value), 1,
				(container) -> container.withJvmOptions("-Dreactor.netty.pool.maxConnections=" + Math.round(value)))));
	}

}
