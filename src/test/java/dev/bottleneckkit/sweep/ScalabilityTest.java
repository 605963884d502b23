package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Scalability;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The Universal Scalability Law fitted to steps made from the law itself and from a
 * pool's hard ceiling: the fit gives back the capacity, where the curve peaks, and how
 * sure it is.
 */
class ScalabilityTest {

	@Test
	void stepsOnAUslCurveGiveItsParametersBack() {
		double lambda = 10;
		double sigma = 0.05;
		double kappa = 0.002;
		List<Step> steps = new ArrayList<>();
		for (int users = 1; users <= 64; users *= 2) {
			steps.add(step(users, lambda * users / (1 + sigma * (users - 1) + kappa * users * (users - 1))));
		}

		Scalability fit = Scalability.fit(steps).orElseThrow();

		assertThat(fit.lambda()).isCloseTo(lambda, within(0.2));
		assertThat(fit.sigma()).isCloseTo(sigma, within(0.01));
		assertThat(fit.kappa()).isCloseTo(kappa, within(0.0005));
		assertThat(fit.peakUsers().getAsDouble()).as("√((1 − σ) / κ) = 21.8").isCloseTo(21.8, within(2.0));
		assertThat(fit.capacity().getAsDouble()).as("X(21.8) = 218 / 2.95").isCloseTo(74.0, within(1.5));
	}

	/**
	 * A pool of 5 at 0.5 s: 2, 4, 8, 10, 10 rps. The curve's capacity lies near the
	 * pool's 10 rps, and leaving out a step moves it a little.
	 */
	@Test
	void aPoolsHardCeilingIsTheCurvesCapacity() {
		List<Step> steps = List.of(step(1, 2.0), step(2, 4.0), step(4, 7.9), step(8, 9.9), step(16, 10.0));

		Scalability fit = Scalability.fit(steps).orElseThrow();

		assertThat(fit.capacity().getAsDouble()).isCloseTo(10.0, within(1.5));
		assertThat(fit.capacityLow().getAsDouble()).isLessThanOrEqualTo(fit.capacity().getAsDouble() + 1e-9);
		assertThat(fit.capacityHigh().getAsDouble()).isGreaterThanOrEqualTo(fit.capacity().getAsDouble() - 1e-9);
		assertThat(fit.capacityWithinReach()).isTrue();
		assertThat(fit.toString()).startsWith("USL: λ ").contains("capacity ", "leaving out each step");
	}

	@Test
	void throughputStillDoublingHasNoCapacityInReach() {
		Scalability fit = Scalability.fit(List.of(step(1, 2.0), step(2, 4.0), step(4, 8.0))).orElseThrow();

		assertThat(fit.throughputAt(8)).isCloseTo(16.0, within(0.5));
	}

	/**
	 * A curve that bends a little by 8 users (S4's pool of 12, 0.1 s: 9.8, 19, 36, 62
	 * rps) peaks far beyond the steps; its capacity is the fit's guess, and the line says
	 * so.
	 */
	@Test
	void aPeakFarBeyondTheStepsIsNotACapacityWithinReach() {
		Scalability fit = Scalability.fit(List.of(step(1, 9.8), step(2, 19.0), step(4, 36.0), step(8, 62.0)))
			.orElseThrow();

		assertThat(fit.measuredUpToUsers()).isEqualTo(8);
		assertThat(fit.capacityWithinReach()).isFalse();
		assertThat(fit.toString()).contains("no capacity within the sweep's reach", "the steps went up to 8");
	}

	@Test
	void twoStepsAreTooFewForThreeParameters() {
		assertThat(Scalability.fit(List.of(step(1, 2.0), step(2, 4.0)))).isEmpty();
	}

	private static Step step(int users, double rps) {
		Duration window = Duration.ofSeconds(10);
		return new Step(users,
				LoadResults.closedLoop("load", users, window, Math.round(rps * 10),
						Duration.ofMillis(Math.round(users * 1000 / rps))),
				new GaugeTimeline(java.util.Map.of()), new GaugeTimeline(java.util.Map.of()), Optional.empty(),
				List.of(), OptionalInt.empty(), List.of(), List.of(), window);
	}

}
