package dev.bottleneckkit.assertions;

import java.util.Locale;

import dev.bottleneckkit.sweep.ABComparison;

/**
 * {@code hasNotRegressed}: the head regressed against its base, measured side by side: a
 * figure's interval wholly beyond the bound, or the cap moved.
 */
final class ShouldNotHaveRegressedAgainstItsBase extends AssertionMessage {

	static ShouldNotHaveRegressedAgainstItsBase shouldNotHaveRegressed(ABComparison actual, double bound) {
		return new ShouldNotHaveRegressedAgainstItsBase(actual, bound);
	}

	private ShouldNotHaveRegressedAgainstItsBase(ABComparison actual, double bound) {
		super("%s regressed against %s beyond %d %% (measured side by side, %d blocks at %d and %d users):%n  %s",
				actual.headImage(), actual.baseImage(), percent(bound), actual.blocks(), actual.kneeUsers(),
				actual.ceilingUsers(), String.join(String.format(Locale.ROOT, "%n  "), actual.lines(bound)));
	}

}
