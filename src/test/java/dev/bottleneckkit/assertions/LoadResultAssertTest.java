package dev.bottleneckkit.assertions;

import java.time.Duration;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.model.Ceiling;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Percentage.withPercentage;

class LoadResultAssertTest {

	private static final Ceiling FIVE_PER_ROUTE = Ceiling.of(5, "connections per route", Duration.ofMillis(500));

	@Test
	void throughputFailureNamesTheCapAndLittlesLaw() {
		LoadResult capped = result(40, 98, Duration.ofSeconds(10), 4_000);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(capped)
				.hasThroughputNear(Ceiling.of(40, "connections per route", Duration.ofMillis(500)), withPercentage(15)))
			.withMessageContaining("measured 9.8 rps; expected 80.0 rps ±15 %")
			.withMessageContaining("40 users fit in 40 connections per route");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result(40, 400, Duration.ofSeconds(10), 500)).hasThroughputNear(FIVE_PER_ROUTE,
					withPercentage(15)))
			.withMessageContaining("measured 40.0 rps; expected 10.0 rps ±15 %")
			.withMessageContaining(
					"40 users share connections per route, so 5 connections per route / 0.500 s = 10.0 rps is the cap");
	}

	@Test
	void aToleranceWrittenAsAShareSaysHowToWriteIt() {
		LoadResult capped = result(40, 98, Duration.ofSeconds(10), 4_000);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> assertThat(capped).hasThroughputNear(FIVE_PER_ROUTE, withPercentage(0.15)))
			.withMessage("a tolerance of 0.15 % is below the noise of any run: withPercentage(15) is ±15 %");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> assertThat(capped).hasThroughputNear(FIVE_PER_ROUTE, withPercentage(150)))
			.withMessage("tolerance (%) must be between 1.0 and 100.0, was 150.0");
	}

	@Test
	void passesInsideTheBandAndFailsJustOutsideIt() {
		assertThat(result(40, 86, Duration.ofSeconds(10), 4_000)).hasThroughputNear(FIVE_PER_ROUTE, withPercentage(15));
		assertThat(result(40, 114, Duration.ofSeconds(10), 4_000)).hasThroughputNear(FIVE_PER_ROUTE,
				withPercentage(15));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result(40, 84, Duration.ofSeconds(10), 4_000))
				.hasThroughputNear(FIVE_PER_ROUTE, withPercentage(15)));
	}

	@Test
	void queueingAssertionSaysRequestsDidNotQueue() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result(5, 100, Duration.ofSeconds(10), 510)).hasMedianLatencyAtLeast(2,
					Duration.ofMillis(500)))
			.withMessageContaining("median latency 510 ms is below 2.0 × 500 ms: requests did not queue");
	}

	@Test
	void aRunWhoseGeneratorSaturatedSaysTheGeneratorWasTheCap() {
		LoadResult generatorBound = LoadResults.closedLoop("test", 40, Duration.ofSeconds(10), 100,
				Duration.ofMillis(500), 0.97);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(generatorBound).hasThroughputNear(FIVE_PER_ROUTE, withPercentage(15)))
			.withMessageStartingWith(
					"the load generator, not the service, was the cap: its busiest thread was on the CPU 97 %"
							+ " of the run, so it could not send faster; give the test JVM more CPU or the load fewer users");
	}

	private static LoadResult result(int users, long succeeded, Duration window, long latencyMs) {
		return LoadResults.closedLoop("test", users, window, succeeded, Duration.ofMillis(latencyMs));
	}

}
