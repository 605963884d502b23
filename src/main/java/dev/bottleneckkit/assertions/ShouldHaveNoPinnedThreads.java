package dev.bottleneckkit.assertions;

import dev.bottleneckkit.probe.PinningReport;

/** {@code hasNoPinnedThreads}: pinned events, with their culprits and longest stack. */
final class ShouldHaveNoPinnedThreads extends AssertionMessage {

	static ShouldHaveNoPinnedThreads shouldHaveNoPinnedThreads(PinningReport actual, int frames) {
		return new ShouldHaveNoPinnedThreads(actual, frames);
	}

	private ShouldHaveNoPinnedThreads(PinningReport actual, int frames) {
		super("expected no pinned virtual threads, but found %s", actual.describe(frames));
	}

}
