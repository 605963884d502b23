package dev.bottleneckkit.assertions;

import dev.bottleneckkit.probe.PinningReport;

/** {@code hasNoPinsCausedBy}: pinned events whose culprit lies in the code named. */
final class ShouldHaveNoPinsCausedBy extends AssertionMessage {

	static ShouldHaveNoPinsCausedBy shouldHaveNoPinsCausedBy(PinningReport actual, String prefix, long there,
			int frames) {
		return new ShouldHaveNoPinsCausedBy(actual, prefix, there, frames);
	}

	private ShouldHaveNoPinsCausedBy(PinningReport actual, String prefix, long there, int frames) {
		super("expected no pinned virtual thread blocked in %s, but %d of %d were: %s", prefix, there, actual.count(),
				actual.describe(frames));
	}

}
