package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code isConfirmedWithin}: the verdict was not put to the test, did not hold, or held
 * with a ceiling farther from its prediction than allowed.
 */
final class ShouldBeConfirmed extends AssertionMessage {

	static ShouldBeConfirmed shouldBePutToTheTest(SweepResult actual) {
		return new ShouldBeConfirmed("the verdict was not put to the test (Sweep.confirming(), a verdict that names a"
				+ " resource with a knob): %s%n%s", actual.verdict(), actual.table());
	}

	static ShouldBeConfirmed shouldHold(SweepResult actual, Confirmation confirmation) {
		return new ShouldBeConfirmed("the verdict did not hold: %s%n%s", confirmation.line(), actual.table());
	}

	static ShouldBeConfirmed shouldBeNearItsPrediction(SweepResult actual, Confirmation confirmation, double allowed) {
		return new ShouldBeConfirmed(
				"the verdict held, but the ceiling with the knob turned is %d %% from its prediction, allowed %d %%:"
						+ " %s%n%s",
				percent(confirmation.predictionError()), percent(allowed), confirmation.line(), actual.table());
	}

	private ShouldBeConfirmed(String format, Object... arguments) {
		super(format, arguments);
	}

}
