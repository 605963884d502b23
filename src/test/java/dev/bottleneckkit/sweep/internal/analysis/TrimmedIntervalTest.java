package dev.bottleneckkit.sweep.internal.analysis;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The A/B interval holds its 95 % on simulated guards, and one paused block does not move
 * it. The simulation here is the kit's own code on 20,000 guards a case;
 * {@code bench/ab-interval-sim.py} prints the wider table (heavy tails, skewed loads, a
 * replay of the runs' real blocks).
 */
class TrimmedIntervalTest {

	private static final int GUARDS = 20_000;

	@Test
	void normalBlocksAreCoveredNinetyFivePercentOfTheTime() {
		for (int blocks : new int[] { 6, 8, 10 }) {
			Random random = new Random(blocks);
			int covered = 0;
			for (int guard = 0; guard < GUARDS; guard++) {
				covered += covers(normal(random, blocks, 0.01)) ? 1 : 0;
			}
			assertThat(covered / (double) GUARDS).as("coverage at %d blocks", blocks).isBetween(0.94, 0.96);
		}
	}

	/**
	 * A guard whose one block met a GC pause (8 standard deviations off) is covered as
	 * often, with an interval about as wide as without it; Student's t widens to four
	 * times its width (its coverage goes to 100 %, and the guard finds nothing).
	 */
	@Test
	void onePausedBlockMovesNeitherTheCoverageNorTheWidth() {
		Random random = new Random(8);
		int covered = 0;
		double[] clean = new double[GUARDS];
		double[] paused = new double[GUARDS];
		for (int guard = 0; guard < GUARDS; guard++) {
			double[] ratios = normal(random, 8, 0.01);
			clean[guard] = TrimmedInterval.of(ratios).halfWidth();
			ratios[random.nextInt(ratios.length)] += (random.nextBoolean() ? 8 : -8) * 0.01;
			paused[guard] = TrimmedInterval.of(ratios).halfWidth();
			covered += covers(ratios) ? 1 : 0;
		}
		assertThat(covered / (double) GUARDS).isGreaterThanOrEqualTo(0.94);
		assertThat(median(paused)).isLessThan(1.35 * median(clean));
	}

	/**
	 * On an A/A guard whose blocks spread by 2 %, a red at 5 % (the interval's top below
	 * 0.95) comes less than once in 200 guards.
	 */
	@Test
	void aNoisyAAGuardIsRarelyRedAtFivePercent() {
		for (int blocks : new int[] { 6, 8 }) {
			Random random = new Random(100 + blocks);
			int red = 0;
			for (int guard = 0; guard < GUARDS; guard++) {
				TrimmedInterval interval = TrimmedInterval.of(normal(random, blocks, 0.02));
				red += (Math.exp(interval.location() + interval.halfWidth()) < 0.95) ? 1 : 0;
			}
			assertThat(red / (double) GUARDS).as("false reds at %d blocks", blocks).isLessThan(0.005);
		}
	}

	@Test
	void theTrimmedMeanLeavesTheEndsOutAndTheSpreadPullsThemIn() {
		TrimmedInterval interval = TrimmedInterval.of(new double[] { 0.01, 0.00, -0.01, 0.02, -0.02, 0.50 });

		assertThat(TrimmedInterval.trimmed(6)).isEqualTo(1);
		assertThat(interval.location()).as("the mean of -0.01, 0, 0.01, 0.02").isCloseTo(0.005, within(1e-12));
		assertThat(interval.spread()).as("the 0.5 counted as 0.02, the -0.02 as -0.01")
			.isCloseTo(standardDeviation(-0.01, -0.01, 0.00, 0.01, 0.02, 0.02), within(1e-12));
	}

	/**
	 * Below five blocks nothing is trimmed; the interval is Student's, but at four, where
	 * a comparison stops only on blocks that agree closely, its point is the early
	 * stop's.
	 */
	@Test
	void belowFiveBlocksNothingIsTrimmedAndTheIntervalIsStudents() {
		double[] ratios = { 0.01, -0.01, 0.02, 0.0 };
		double[] three = { 0.01, -0.01, 0.02 };

		TrimmedInterval interval = TrimmedInterval.of(ratios);

		assertThat(TrimmedInterval.trimmed(4)).isZero();
		assertThat(interval.halfWidth()).as("four blocks, at the early stop's point")
			.isCloseTo(TrimmedInterval.EARLY_POINT * standardDeviation(ratios) / 2, within(1e-12));
		assertThat(TrimmedInterval.EARLY_POINT).as("wider than Student's 3.182 at 3 degrees of freedom")
			.isGreaterThan(3.182);
		assertThat(TrimmedInterval.of(three).halfWidth()).isCloseTo(4.303 * standardDeviation(three) / Math.sqrt(3),
				within(1e-12));
		assertThat(TrimmedInterval.studentT975(1000)).isCloseTo(1.96, within(0.01));
		assertThat(TrimmedInterval.of(new double[] { 0.01 }).halfWidth()).isInfinite();
	}

	private static boolean covers(double[] ratios) {
		TrimmedInterval interval = TrimmedInterval.of(ratios);
		return Math.abs(interval.location()) <= interval.halfWidth();
	}

	private static double[] normal(Random random, int n, double sd) {
		double[] ratios = new double[n];
		for (int i = 0; i < n; i++) {
			ratios[i] = sd * random.nextGaussian();
		}
		return ratios;
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	private static double standardDeviation(double... values) {
		double mean = Arrays.stream(values).average().orElse(0);
		return Math.sqrt(Arrays.stream(values).map((v) -> (v - mean) * (v - mean)).sum() / (values.length - 1));
	}

}
