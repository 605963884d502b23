package dev.bottleneckkit.assertions;

import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.sweep.SweepResult;

/** {@code comparedWith}: the sweep regressed against the same sweep in a baseline. */
final class ShouldNotRegress extends AssertionMessage {

	static ShouldNotRegress shouldNotRegress(SweepResult actual, Comparison comparison) {
		return new ShouldNotRegress(actual, comparison);
	}

	private ShouldNotRegress(SweepResult actual, Comparison comparison) {
		super("%s regressed against the baseline %s:%s%n%s", actual.name(), comparison.baseline(),
				comparison.regressionLines(), actual.table());
	}

}
