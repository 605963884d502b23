package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.SweepResult;

/** {@code isUnexplained}: a resource's model explains the ceiling after all. */
final class ShouldBeUnexplained extends AssertionMessage {

	static ShouldBeUnexplained shouldBeUnexplained(SweepResult actual) {
		return new ShouldBeUnexplained(actual);
	}

	private ShouldBeUnexplained(SweepResult actual) {
		super("expected no resource to explain the ceiling, but the sweep says: %s%n%s", actual.verdict(),
				actual.table());
	}

}
