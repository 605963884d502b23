package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code hasNoCap} and {@code hasNoCapBelow}: the sweep saturated, or stopped short of
 * the rate it was to prove.
 */
final class ShouldHaveNoCap extends AssertionMessage {

	static ShouldHaveNoCap shouldHaveNoCap(SweepResult actual) {
		return new ShouldHaveNoCap("expected no cap up to %d users, but the sweep says: %s%n%s", lastUsers(actual),
				actual.verdict(), actual.table());
	}

	static ShouldHaveNoCap shouldReach(SweepResult actual, double rps) {
		return new ShouldHaveNoCap(
				"expected no cap below %s, but the sweep never reached it: it stopped at %d users and %s, still"
						+ " rising; sweep up to more users (upToUsers) to reach %s%n%s",
				rps(rps), lastUsers(actual), rps(actual.ceiling()), rps(rps), actual.table());
	}

	static ShouldHaveNoCap shouldHaveNoCapBelow(SweepResult actual, double rps) {
		return new ShouldHaveNoCap("expected no cap below %s, but the service stopped at %s: %s%n%s", rps(rps),
				rps(actual.ceiling()), actual.verdict(), actual.table());
	}

	private static int lastUsers(SweepResult actual) {
		return actual.steps().stream().mapToInt((step) -> step.users()).max().orElse(0);
	}

	private ShouldHaveNoCap(String format, Object... arguments) {
		super(format, arguments);
	}

}
