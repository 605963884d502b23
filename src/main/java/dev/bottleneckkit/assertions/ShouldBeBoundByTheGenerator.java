package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.SweepResult;

/** {@code isBoundByTheGenerator}: the load generator was not the cap. */
final class ShouldBeBoundByTheGenerator extends AssertionMessage {

	static ShouldBeBoundByTheGenerator shouldBeBoundByTheGenerator(SweepResult actual) {
		return new ShouldBeBoundByTheGenerator(actual);
	}

	private ShouldBeBoundByTheGenerator(SweepResult actual) {
		super("expected the load generator to be the cap, but the sweep says: %s%n%s", actual.verdict(),
				actual.table());
	}

}
