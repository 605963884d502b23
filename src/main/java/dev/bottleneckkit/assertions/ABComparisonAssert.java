package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.ABComparison;

/**
 * The kit's assertions on an {@link ABComparison}, from
 * {@code BottleneckAssertions.assertThat(comparison)}; extend
 * {@link AbstractABComparisonAssert} to add assertions of your own.
 */
public class ABComparisonAssert extends AbstractABComparisonAssert<ABComparisonAssert> {

	public ABComparisonAssert(ABComparison actual) {
		super(actual, ABComparisonAssert.class);
	}

}
