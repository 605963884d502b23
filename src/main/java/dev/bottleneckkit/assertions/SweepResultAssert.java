package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.SweepResult;

/**
 * The kit's assertions on a {@link SweepResult}, from
 * {@code BottleneckAssertions.assertThat(sweepResult)}; extend
 * {@link AbstractSweepResultAssert} to add assertions of your own.
 */
public class SweepResultAssert extends AbstractSweepResultAssert<SweepResultAssert> {

	public SweepResultAssert(SweepResult actual) {
		super(actual, SweepResultAssert.class);
	}

}
