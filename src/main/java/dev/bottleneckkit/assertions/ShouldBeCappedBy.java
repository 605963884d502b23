package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code isCappedBy}: the verdict names another resource, or none; or it names this one
 * and turning its knob did not move the ceiling.
 */
final class ShouldBeCappedBy extends AssertionMessage {

	static ShouldBeCappedBy shouldBeCappedBy(SweepResult actual, Resource expected) {
		return new ShouldBeCappedBy("expected the cap to be %s, but the sweep says: %s%n%s", expected.description(),
				actual.verdict(), actual.table());
	}

	static ShouldBeCappedBy shouldHoldWhenPutToTheTest(SweepResult actual, Resource expected,
			Confirmation confirmation) {
		return new ShouldBeCappedBy("the sweep names %s, but the verdict was put to the test and did not hold: %s%n%s",
				expected.description(), confirmation.line(), actual.table());
	}

	private ShouldBeCappedBy(String format, Object... arguments) {
		super(format, arguments);
	}

}
