package dev.bottleneckkit.sweep.internal.analysis;

import java.util.Arrays;

/**
 * A 95 % interval on the blocks' log ratios that one bad block cannot move: the 20 %
 * trimmed mean with the Tukey–McLaughlin standard error (the winsorized standard
 * deviation over the kept share of the blocks). With 6 to 9 blocks the lowest and the
 * highest block are left out of the mean and pulled in to their neighbours for the
 * spread, so a block that met a GC pause or a neighbour's burst counts as if it were its
 * neighbour; with 10 to 14, two at each end.
 * <p>
 * The statistic's 97.5 % point is not Student's t at these sizes: the trimmed interval
 * with t at {@code kept - 1} degrees of freedom covers 93.4 % at 6 blocks. The points
 * here are the statistic's own under normal blocks, each from 400,000 simulated samples
 * ({@code bench/ab-interval-sim.py}, which also shows the coverage they give on
 * heavy-tailed blocks, on blocks with one paused, and on replays of the runs' A/A
 * blocks). Under A/A the log ratios are symmetric about 0 whatever the loads'
 * distribution: which side is A is drawn at random, and two runs of one image are
 * exchangeable. Below 5 blocks nothing is trimmed and the interval is Student's, but at
 * 4: a comparison stops at 4 blocks only when they agree closely, and an interval
 * reported because it was narrow covers less than its point promises (Student's 3.182
 * gave the whole rule 93 %). {@value #EARLY_POINT} gives it the coverage of the rule
 * without that stop ({@code bench/ab-interval-sim.py --stopping}).
 *
 * @param location the trimmed mean of the log ratios
 * @param halfWidth half the interval's width, on the log scale
 * @param spread the winsorized standard deviation of one block's log ratio: the noise the
 * run measured
 */
public record TrimmedInterval(double location, double halfWidth, double spread) {

	/**
	 * The 97.5 % point at 4 blocks, where a comparison stops early: the whole rule's, not
	 * Student's.
	 */
	static final double EARLY_POINT = 5.0;

	/** The share trimmed at each end. */
	static final double TRIM = 0.2;

	/**
	 * The trimmed statistic's 97.5 % points under normal blocks, for 5 to 16 blocks
	 * ({@code bench/ab-interval-sim.py --quantiles}).
	 */
	private static final double[] POINTS = { 5.380, 3.607, 3.011, 2.706, 2.551, 2.823, 2.623, 2.494, 2.402, 2.336,
			2.434, 2.361 };

	/** The interval of {@code logRatios}; infinite below 2 blocks. */
	public static TrimmedInterval of(double[] logRatios) {
		return of(logRatios, point(logRatios.length));
	}

	/**
	 * The interval of {@code logRatios} at one look of a guard that looks after every
	 * even count of blocks and stops when it knows: the fixed count's point
	 * ({@link #fixedPoint}) widened by {@code widen}, so that the intervals of all its
	 * looks cover the truth at once as often as one interval does (repeated confidence
	 * intervals, Jennison and Turnbull 1989, with a constant widening as Pocock's 1977
	 * boundaries have; the constant from {@code bench/ab-interval-sim.py --sequential}).
	 */
	public static TrimmedInterval atALook(double[] logRatios, double widen) {
		return of(logRatios, widen * fixedPoint(logRatios.length));
	}

	private static TrimmedInterval of(double[] logRatios, double point) {
		int n = logRatios.length;
		if (n == 0) {
			return new TrimmedInterval(0, Double.POSITIVE_INFINITY, Double.NaN);
		}
		double[] sorted = logRatios.clone();
		Arrays.sort(sorted);
		int trimmed = trimmed(n);
		int kept = n - 2 * trimmed;
		double location = 0;
		for (int i = trimmed; i < n - trimmed; i++) {
			location += sorted[i] / kept;
		}
		if (n < 2) {
			return new TrimmedInterval(location, Double.POSITIVE_INFINITY, Double.NaN);
		}
		double[] winsorized = new double[n];
		for (int i = 0; i < n; i++) {
			winsorized[i] = sorted[Math.max(trimmed, Math.min(n - 1 - trimmed, i))];
		}
		double mean = Arrays.stream(winsorized).average().orElse(0);
		double squares = 0;
		for (double each : winsorized) {
			squares += (each - mean) * (each - mean);
		}
		double spread = Math.sqrt(squares / (n - 1));
		double standardError = spread * Math.sqrt(n) / kept;
		return new TrimmedInterval(location, point * standardError, spread);
	}

	/** The blocks left out at each end of {@code n}: 20 %, rounded down. */
	static int trimmed(int n) {
		return (int) Math.floor(TRIM * n);
	}

	/** The 97.5 % point for {@code n} blocks: a 95 % two-sided interval. */
	static double point(int n) {
		return (n == 4) ? EARLY_POINT : fixedPoint(n);
	}

	/**
	 * The 97.5 % point for {@code n} blocks taken without looking before: Student's below
	 * 5 blocks (nothing trimmed), the trimmed statistic's own from 5.
	 */
	static double fixedPoint(int n) {
		if (n < 2) {
			return Double.POSITIVE_INFINITY;
		}
		if (trimmed(n) == 0) {
			return studentT975(n - 1);
		}
		if (n - 5 < POINTS.length) {
			return POINTS[n - 5];
		}
		// Beyond the table the statistic is near Student's at kept - 1 degrees of
		// freedom; 5 % wider covers what the table shows it lacks there.
		return 1.05 * studentT975(n - 2 * trimmed(n) - 1);
	}

	/**
	 * Student's t at 97.5 % for {@code df} degrees of freedom: a 95 % two-sided interval.
	 */
	static double studentT975(int df) {
		double[] table = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
				2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086 };
		return (df <= table.length) ? table[df - 1] : 1.96 + 2.4 / df;
	}

}
