package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Agroal's JDBC pool (Quarkus' datasource): from its meters ({@code agroal.*}), else from
 * where request threads wait in dumps; turned by
 * {@code QUARKUS_DATASOURCE_JDBC_MAX_SIZE}.
 */
final class AgroalPoolKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.AGROAL_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LimitRules::agroal, LimitRules::agroalFromDump);
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
		return Optional.of(Knob.Family.quarkus("Agroal ", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE"));
	}

}
