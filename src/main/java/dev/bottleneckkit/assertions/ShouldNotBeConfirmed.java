package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code isNotConfirmed}: turning the knob moved the ceiling, or it was never turned.
 */
final class ShouldNotBeConfirmed extends AssertionMessage {

	static ShouldNotBeConfirmed shouldNotBeConfirmed(SweepResult actual) {
		return new ShouldNotBeConfirmed(actual);
	}

	private ShouldNotBeConfirmed(SweepResult actual) {
		super("expected the knob not to move the ceiling, but: %s%n%s",
				actual.confirmation().map(Confirmation::line).orElse("the verdict was not put to the test"),
				actual.table());
	}

}
