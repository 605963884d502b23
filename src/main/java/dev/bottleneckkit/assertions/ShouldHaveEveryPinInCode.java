package dev.bottleneckkit.assertions;

import dev.bottleneckkit.probe.PinningReport;

/**
 * {@code hasEveryPinInCode}: pinned stacks without a frame of the code named, or no pin
 * at all.
 */
final class ShouldHaveEveryPinInCode extends AssertionMessage {

	static ShouldHaveEveryPinInCode shouldHaveEveryPinInCode(PinningReport actual, String prefix, long elsewhere,
			int frames) {
		return new ShouldHaveEveryPinInCode(actual, prefix, elsewhere, frames);
	}

	private ShouldHaveEveryPinInCode(PinningReport actual, String prefix, long elsewhere, int frames) {
		super("expected every pinned stack to hold a frame of %s, but %d of %d do not: %s", prefix, elsewhere,
				actual.count(), actual.describe(frames));
	}

}
