package dev.bottleneckkit.assertions;

import dev.bottleneckkit.probe.PinningReport;

/** {@code hasPinnedAtLeast}: fewer pinned events than expected. */
final class ShouldHavePinnedAtLeast extends AssertionMessage {

	static ShouldHavePinnedAtLeast shouldHavePinnedAtLeast(PinningReport actual, int events, int frames) {
		return new ShouldHavePinnedAtLeast(actual, events, frames);
	}

	private ShouldHavePinnedAtLeast(PinningReport actual, int events, int frames) {
		super("expected at least %d pinned events, but found %s", events, actual.describe(frames));
	}

}
