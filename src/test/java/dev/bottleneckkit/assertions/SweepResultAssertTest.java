package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sweep assertions' false greens, pinned: a claim about a cap is never read off
 * errors or off a short sweep.
 */
class SweepResultAssertTest {

	@Test
	void aSweepWhoseAnswersAreAll404sIsNoProofThatNothingCapsTheService() {
		SweepResult broken = SweepResults.everyAnswerA404();

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(broken).hasNoCap())
			.withMessageStartingWith("the route fails for one user, so the sweep says nothing about its cap: 800 of 800"
					+ " answers failed: 800 × http-404 — check the route, its method and headers, and the service's log");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(broken).isNotCappedBy(Resource.CPU))
			.withMessageStartingWith("the route fails for one user");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(broken).hasNoCapBelow(10))
			.withMessageStartingWith("the route fails for one user");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(broken).isCappedBy(Resource.HIKARI_POOL))
			.withMessageStartingWith("the route fails for one user");
	}

	@Test
	void noCapBelowARateTheSweepNeverReachedIsNotProved() {
		SweepResult shortSweep = SweepResults.stillRisingAt39Rps();

		assertThat(shortSweep).hasNoCapBelow(35).hasNoCap();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(shortSweep).hasNoCapBelow(100))
			.withMessageStartingWith(
					"expected no cap below 100.0 rps, but the sweep never reached it: it stopped at 4 users"
							+ " and 39.0 rps, still rising; sweep up to more users (upToUsers) to reach 100.0 rps");
	}

	@Test
	void aCappedSweepStillNamesItsResource() {
		assertThat(SweepResults.cappedByAPoolOfFive()).isCappedBy(Resource.HTTP_CLIENT_POOL)
			.isNotCappedBy(Resource.HIKARI_POOL)
			.hasNoCapBelow(5);
	}

}
