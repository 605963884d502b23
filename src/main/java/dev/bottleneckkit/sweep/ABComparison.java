package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.sweep.internal.analysis.TrimmedInterval;

/**
 * A service's head image (B, the pull request's) against its base image (A, main's),
 * measured side by side in one run: both started alike, their loads taken in turn, never
 * at once, each figure a ratio B / A with a 95 % interval from repeated interleaved
 * blocks, and a verdict per figure: {@link Change#REGRESSED}, {@link Change#IMPROVED} or
 * {@link Change#NO_CHANGE} beyond the guard's bound, or {@link Change#UNRESOLVED}. A cap
 * that moved from one resource to another is a regression of its own; a side whose
 * verdict names no resource (unexplained, no cap, the load generator) moves nothing, and
 * its figures alone decide.
 * <p>
 * Each block measures A and B at the knee's users and at the ceiling's, in the order A B
 * B A or B A A B, so that a machine that slows during a block slows both alike. Which
 * side goes first is drawn at random and balanced over each pair of blocks
 * ({@link #seed()} replays it). A figure's interval is a 20 % trimmed one on the blocks'
 * log ratios ({@code TrimmedInterval}): the blocks are the pairs (each holds A and B
 * measured within seconds of each other), the log makes a ratio and its inverse
 * symmetric, and the trimming keeps one block that met a GC pause or a neighbour's burst
 * from moving the interval. Where the CPU may cap the route, the blocks come from two
 * pairs of JVMs and the interval also holds the spread from one pair of fresh JVMs to the
 * next, which no number of blocks on one pair averages away.
 *
 * @param baseImage the base (A), as the run named it
 * @param headImage the head (B)
 * @param sameImage whether both are one image by id: an A/A comparison
 * @param kneeUsers the users of the knee, where throughput reached 90 % of the ceiling
 * @param ceilingUsers the users of the last step, where doubling no longer paid
 * @param figures each figure's base, head, ratio and interval
 * @param baseCap what caps the base, as its verdict says in a few words
 * @param headCap what caps the head
 * @param capMoved whether each side's verdict named a resource, and not the same one
 * @param blocks the interleaved blocks measured
 * @param seed the seed of the blocks' order: {@code -Dbottleneck.ab.seed=SEED} replays it
 * @param baseSteps the base's steps of the knee's search (the head's are the sweep's)
 * @param took how long the comparison took, the base's start included
 * @param bound the change the guard told apart, as a share (0.02 for 2 %): it stopped
 * once each throughput figure's interval lay beyond it or within it
 */
public record ABComparison(String baseImage, String headImage, boolean sameImage, int kneeUsers, int ceilingUsers,
		List<Figure> figures, String baseCap, String headCap, boolean capMoved, int blocks, long seed,
		List<Step> baseSteps, Duration took, double bound) {

	/**
	 * The change a guard tells apart unless told ({@code Sweep.tolerating}): 2 %. A 5 %
	 * change is then red, never green (at a bound of 5 % one lies on it: a sequential
	 * guard of such a change read green in 2 of 100 simulated,
	 * {@code docs/sequential-sim.md}), and a route that waits for a pool or a downstream
	 * resolves it in 4 blocks.
	 */
	public static final double DEFAULT_BOUND = 0.02;

	public ABComparison {
		figures = List.copyOf(figures);
		baseSteps = List.copyOf(baseSteps);
	}

	/**
	 * Which way a figure moved, at a bound: only an interval wholly beyond it counts, and
	 * only one wholly within it says there was no change beyond it.
	 */
	public enum Change {

		/** The interval lies wholly on the worse side of the bound. */
		REGRESSED,

		/** The interval lies wholly on the better side of the bound. */
		IMPROVED,

		/** The interval lies wholly within the bound either way: no change beyond it. */
		NO_CHANGE,

		/**
		 * The interval reaches across the bound: the blocks could not tell, and the guard
		 * says so, never green.
		 */
		UNRESOLVED

	}

	/**
	 * One figure of A and B.
	 *
	 * @param name what it is: {@code ceiling}, {@code throughput at the knee},
	 * {@code p99 at the knee}
	 * @param unit {@code rps} or {@code ms}
	 * @param base A's mean over the blocks
	 * @param head B's mean over the blocks
	 * @param ratio B / A: the blocks' ratios' 20 % trimmed mean, taken on their logs
	 * @param low the interval's lower end (95 %)
	 * @param high the interval's upper end
	 * @param noise the spread of one block's ratio in this run, as a share (0.012 for
	 * ±1.2 %): the noise floor, what the run could resolve with one block
	 * @param higherIsBetter whether a higher figure is better (throughput) or worse
	 * (latency)
	 */
	public record Figure(String name, String unit, double base, double head, double ratio, double low, double high,
			double noise, boolean higherIsBetter) {

		/** The figure's change at {@code bound} (0.05 for 5 %). */
		public Change change(double bound) {
			double worseBeyond = this.higherIsBetter ? 1 - bound : 1 + bound;
			double betterBeyond = this.higherIsBetter ? 1 + bound : 1 - bound;
			boolean worse = this.higherIsBetter ? this.high < worseBeyond : this.low > worseBeyond;
			boolean better = this.higherIsBetter ? this.low > betterBeyond : this.high < betterBeyond;
			return worse ? Change.REGRESSED
					: better ? Change.IMPROVED : within(bound) ? Change.NO_CHANGE : Change.UNRESOLVED;
		}

		/**
		 * Whether the interval lies wholly within {@code bound} either way: no change
		 * beyond it.
		 */
		public boolean within(double bound) {
			return this.low > 1 - bound && this.high < 1 + bound;
		}

		/**
		 * The ratio B / A and its 95 % interval, as tables show it: "0.668
		 * (0.667–0.669)".
		 */
		public String interval() {
			return String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", this.ratio, this.low, this.high);
		}

		/** One block's spread, the run's noise floor, as tables show it: "±0.1 %". */
		public String spread() {
			return String.format(Locale.ROOT, "±%.1f %%", 100 * this.noise);
		}

		/** Half the interval's width, as a share of 1: 0.03 for ±3 %. */
		public double halfWidth() {
			return (this.high - this.low) / 2;
		}

		/**
		 * "ceiling: 10.1 → 7.9 rps, B/A 0.780 (0.760–0.800, 95 %), a block ±0.9 %:
		 * regressed", "… : no change beyond 2 %" or "… : unresolved at ±2.1 %".
		 */
		public String line(double bound) {
			Change change = change(bound);
			String verdict = switch (change) {
				case REGRESSED -> "regressed";
				case IMPROVED -> "improved";
				case NO_CHANGE -> "no change beyond " + percent(bound);
				case UNRESOLVED -> String.format(Locale.ROOT, "unresolved at ±%.1f %%", 100 * halfWidth());
			};
			return String.format(Locale.ROOT, "%s: %.1f → %.1f %s, B/A %.3f (%.3f–%.3f, 95 %%), a block ±%.1f %%: %s",
					this.name, this.base, this.head, this.unit, this.ratio, this.low, this.high, 100 * this.noise,
					verdict);
		}

	}

	/**
	 * Whether B regressed against A at the guard's bound ({@link #regressed(double)}).
	 */
	public boolean regressed() {
		return regressed(this.bound);
	}

	/**
	 * Whether B regressed against A at {@code bound}: a figure's interval wholly beyond
	 * it, or the cap moved to another resource.
	 */
	public boolean regressed(double bound) {
		return capMoved() || this.figures.stream().anyMatch((figure) -> figure.change(bound) == Change.REGRESSED);
	}

	/** The figure named {@code name}, if measured. */
	public Optional<Figure> figure(String name) {
		return this.figures.stream().filter((figure) -> figure.name().equals(name)).findFirst();
	}

	/** The comparison at the guard's bound, one line a figure, the cap's line first. */
	public List<String> lines() {
		return lines(this.bound);
	}

	/** The comparison at {@code bound}, one line a figure, the cap's line first. */
	public List<String> lines(double bound) {
		List<String> lines = new ArrayList<>();
		lines.add(capMoved() ? "the cap moved from " + this.baseCap + " to " + this.headCap + ": regressed"
				: this.baseCap.equals(this.headCap) ? "capped by " + this.headCap + " in both"
						: "A read " + this.baseCap + ", B " + this.headCap
								+ ": no resource named on both sides, the figures decide");
		this.figures.forEach((figure) -> lines.add(figure.line(bound)));
		return lines;
	}

	/**
	 * "B (orders:pr) against A (orders:main), 6 blocks at 8 and 16 users in 96 s (order's
	 * seed 42): regressed" with every figure's line, at the guard's bound.
	 */
	@Override
	public String toString() {
		return String.format(Locale.ROOT,
				"B (%s) against A (%s)%s, %d blocks at %d and %d users in %d s (order's seed %d): %s%n  %s",
				this.headImage, this.baseImage, this.sameImage ? ", the same image" : "", this.blocks, this.kneeUsers,
				this.ceilingUsers, this.took.toSeconds(), this.seed, outcome(),
				String.join(System.lineSeparator() + "  ", lines()));
	}

	/** Whether the blocks told at the guard's bound ({@link #resolved(double)}). */
	public boolean resolved() {
		return resolved(this.bound);
	}

	/**
	 * Whether the blocks told at {@code bound}: no throughput figure's interval reaches
	 * across it. A guard that ran out of its budget before they did is unresolved, never
	 * green.
	 */
	public boolean resolved(double bound) {
		return this.figures.stream()
			.filter(Figure::higherIsBetter)
			.noneMatch((figure) -> figure.change(bound) == Change.UNRESOLVED);
	}

	/** The comparison's verdict at the guard's bound ({@link #outcome(double)}). */
	public String outcome() {
		return outcome(this.bound);
	}

	/**
	 * The comparison's verdict at {@code bound}: "regressed", "regressed: the cap moved
	 * to …", "unresolved at ±2.4 %" with the widest half-width of its throughput figures
	 * where one reaches across the bound, "improved", or "no change beyond 5 %".
	 */
	public String outcome(double bound) {
		if (capMoved()) {
			return "regressed: the cap moved to " + this.headCap;
		}
		if (regressed(bound)) {
			return "regressed";
		}
		if (!resolved(bound)) {
			return String.format(Locale.ROOT, "unresolved at ±%.1f %%",
					100 * this.figures.stream()
						.filter(Figure::higherIsBetter)
						.mapToDouble(Figure::halfWidth)
						.max()
						.orElse(0));
		}
		if (this.figures.stream().anyMatch((f) -> f.change(bound) == Change.IMPROVED)) {
			return "improved";
		}
		return "no change beyond " + percent(bound);
	}

	/** A bound as a person writes it: "5 %", "2.5 %". */
	public static String percent(double share) {
		return String.format(Locale.ROOT, "%.1f", 100 * share).replaceFirst("\\.0$", "") + " %";
	}

}
