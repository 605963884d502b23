package dev.bottleneckkit.assertions;

import java.util.Locale;

import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code hasNotRegressedAgainstItsBase}: the head regressed against its base, measured
 * side by side: a figure's interval wholly beyond the bound, or the cap moved; or the
 * sweep had no base to be held against.
 */
final class ShouldNotHaveRegressedAgainstItsBase extends AssertionMessage {

	static ShouldNotHaveRegressedAgainstItsBase shouldNotHaveRegressed(ABComparison actual, double bound) {
		return new ShouldNotHaveRegressedAgainstItsBase(actual, bound);
	}

	/**
	 * The blocks could not tell at {@code bound}: a throughput figure's interval reaches
	 * across it, and a guard that cannot tell is not green.
	 */
	static ShouldNotHaveRegressedAgainstItsBase shouldBeResolved(ABComparison actual, double bound) {
		return new ShouldNotHaveRegressedAgainstItsBase(String.format(Locale.ROOT,
				"%s against %s is %s at a bound of %d %% after %d blocks at %d and %d users (%d s): the blocks could not"
						+ " tell; a longer budget (Sweep.within) or a wider bound (Sweep.tolerating) resolves it:%n  %s",
				actual.headImage(), actual.baseImage(), actual.outcome(bound), percent(bound), actual.blocks(),
				actual.kneeUsers(), actual.ceilingUsers(), actual.took().toSeconds(),
				String.join(String.format(Locale.ROOT, "%n  "), actual.lines(bound))));
	}

	static ShouldNotHaveRegressedAgainstItsBase shouldHaveABase(SweepResult actual) {
		return new ShouldNotHaveRegressedAgainstItsBase(String.format(Locale.ROOT,
				"%s was not measured against a base image: name main's with -Dbottleneck.against=<image> (the guard"
						+ " workflow does on a pull request) or Sweep.against(image); -Dbottleneck.against=none runs it"
						+ " alone",
				actual.name()));
	}

	private ShouldNotHaveRegressedAgainstItsBase(String message) {
		super("%s", message);
	}

	private ShouldNotHaveRegressedAgainstItsBase(ABComparison actual, double bound) {
		super("%s regressed against %s beyond %d %% (measured side by side, %d blocks at %d and %d users):%n  %s",
				actual.headImage(), actual.baseImage(), percent(bound), actual.blocks(), actual.kneeUsers(),
				actual.ceilingUsers(), String.join(String.format(Locale.ROOT, "%n  "), actual.lines(bound)));
	}

}
