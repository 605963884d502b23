package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's uses of a pool from the same step's rates: whole where near a whole number,
 * else to a tenth, one where a rate is not read.
 */
class HikariUsesTest {

	@Test
	void usesNearAWholeNumberAreThatNumber() {
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(82.0), 40.0)).isEqualTo(2);
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(41.5), 40.0)).isEqualTo(1);
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(34.5), 40.0)).isEqualTo(1);
	}

	@Test
	void usesFarFromAWholeNumberAreKeptToATenth() {
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(100.0), 40.0)).isEqualTo(2.5);
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(12.0), 40.0)).isEqualTo(0.3);
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(0.4), 40.0)).isEqualTo(0.1);
	}

	@Test
	void withoutARateARequestUsesThePoolOnce() {
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.empty(), 40.0)).isEqualTo(1);
		assertThat(HikariPoolKind.usesOfARequest(OptionalDouble.of(80.0), 0.0)).isEqualTo(1);
	}

	@Test
	void theHoldOfARequestIsItsUsesTimesTheHoldOfAUse() {
		HikariPoolKind.Demand twice = HikariPoolKind.Demand.of(4, Duration.ofMillis(50), 2);
		HikariPoolKind.Demand once = HikariPoolKind.Demand.of(4, Duration.ofMillis(50), 1);

		assertThat(twice.model().rps()).isEqualTo(40.0);
		assertThat(twice.model().holdIs()).isEqualTo("2 uses × 0.050 s");
		assertThat(twice.aRequest()).isEqualTo(", 2 uses a request");
		assertThat(once.model().holdIs()).isEqualTo("a use");
		assertThat(once.aRequest()).isEmpty();
	}

}
