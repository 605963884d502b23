package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.ABComparison;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.data.Percentage;

/**
 * AssertJ assertions on an {@link ABComparison}: the head against its base, measured side
 * by side. A failure prints every figure with its ratio, interval and verdict.
 *
 * @param <SELF> the subclass, returned by every assertion
 */
public abstract class AbstractABComparisonAssert<SELF extends AbstractABComparisonAssert<SELF>>
		extends AbstractAssert<SELF, ABComparison> {

	protected AbstractABComparisonAssert(ABComparison actual, Class<?> selfType) {
		super(actual, selfType);
	}

	/**
	 * No figure regressed beyond {@code bound} (1 % to 100 %, {@code withPercentage(5)}):
	 * fails only when a figure's 95 % interval lies wholly beyond it (a throughput below
	 * 1 − bound of the base's, a p99 above 1 + bound), or when the cap moved to another
	 * resource. A difference the blocks cannot resolve passes: no change at this
	 * precision.
	 */
	public SELF hasNotRegressed(Percentage bound) {
		isNotNull();
		double share = Tolerances.share(bound, 100);
		if (this.actual.regressed(share)) {
			throwAssertionError(ShouldNotHaveRegressedAgainstItsBase.shouldNotHaveRegressed(this.actual, share));
		}
		return this.myself;
	}

}
