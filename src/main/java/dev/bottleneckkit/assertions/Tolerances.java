package dev.bottleneckkit.assertions;

import java.util.Locale;

import dev.bottleneckkit.internal.Knobs;
import org.assertj.core.data.Percentage;

/** Tolerances as the assertions take them: AssertJ's {@code Percentage}, 1 % and up. */
final class Tolerances {

	private Tolerances() {
	}

	/**
	 * A tolerance as a share (15 % → 0.15), between 1 % and {@code most} %: AssertJ's
	 * {@code Percentage} already refuses a negative one.
	 */
	static double share(Percentage tolerance, double most) {
		if (tolerance.value < 1) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"a tolerance of %s %% is below the noise of any run: withPercentage(15) is ±15 %%",
					tolerance.value));
		}
		Knobs.between("tolerance (%)", tolerance.value, 1, most);
		return tolerance.value / 100;
	}

}
