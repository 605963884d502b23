package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Hikari's JDBC pool: from its meters ({@code hikaricp.connections.*}), else from where
 * request threads wait in dumps. A request holds it for its uses × the hold of a use
 * where Hikari's timer reads them ({@link PoolUses}), else W₁; its knob is
 * {@code spring.datasource.hikari.maximum-pool-size}.
 */
final class HikariPoolKind implements ResourceKind {

	private static final ConfiguredLimit LIMIT = new ConfiguredLimit(Resource.HIKARI_POOL, Gauge.HIKARI_MAX,
			Gauge.HIKARI_ACTIVE, "Hikari pool (%.0f connections)", "connections");

	@Override
	public Resource resource() {
		return Resource.HIKARI_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::hikari, LimitRules::hikariFromDump);
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
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.of(new Knob.Family(1, (value) -> Knob.springProperty("Hikari " + Verdict.count(value),
				"spring.datasource.hikari.maximum-pool-size", (int) Math.round(value), 1)));
	}

}
