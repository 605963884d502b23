package dev.bottleneckkit.sweep.internal.analysis;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.bottleneckkit.sweep.ABComparison;

/**
 * One interleaved block: A and B at the knee's users and at the ceiling's, each the mean
 * of its loads in the block, measured on pair {@code pair} of JVMs (0 the first: the
 * test's service and the base beside it).
 */
public record Block(double baseKneeRps, double headKneeRps, double baseKneeP99Ms, double headKneeP99Ms,
		double baseCeilingRps, double headCeilingRps, int pair) {

	/**
	 * How much each look's point is widened so that a guard that looks after every even
	 * count of blocks, from 4 to {@value #LOOKS_UP_TO}, and stops when it knows, covers
	 * the truth at all its looks at once in 95 % of guards under normal blocks
	 * ({@code bench/ab-interval-sim.py --sequential}, 200,000 guards).
	 */
	static final double WIDEN = 1.543;

	/** The blocks a guard takes before its first look, whatever its budget. */
	public static final int FIRST_LOOK = 4;

	/** The most blocks the widening holds for: the guard looks no more. */
	public static final int LOOKS_UP_TO = 16;

	/** What a sequential guard knows after a look. */
	public enum Decision {

		/** A throughput figure's interval lies wholly below the bound: red. */
		REGRESSED,

		/** Every throughput figure's interval lies within the bound: green. */
		WITHIN,

		/**
		 * Every throughput figure's interval lies within or wholly above the bound, one
		 * above.
		 */
		IMPROVED,

		/** A figure's interval reaches across the bound: one more block. */
		MORE

	}

	/** A block of the first pair of JVMs. */
	public Block(double baseKneeRps, double headKneeRps, double baseKneeP99Ms, double headKneeP99Ms,
			double baseCeilingRps, double headCeilingRps) {
		this(baseKneeRps, headKneeRps, baseKneeP99Ms, headKneeP99Ms, baseCeilingRps, headCeilingRps, 0);
	}

	/**
	 * The figures of {@code blocks}: ratio and 95 % interval each, the blocks' own spread
	 * alone (as if the pair of JVMs measured were the only one).
	 */
	public static List<ABComparison.Figure> figures(List<Block> blocks) {
		return figures(blocks, 0);
	}

	/**
	 * The figures of {@code blocks}, each interval also holding the spread from one pair
	 * of fresh JVMs to the next: {@code pairSpread}, the standard deviation of one pair's
	 * log ratio beyond its blocks' noise, shrunk by the pairs the blocks came from.
	 * Blocks taken on one pair of JVMs share that pair's offset, which no number of them
	 * averages away: the interval is the blocks' trimmed one widened by 1.96 times the
	 * offset's spread in the blocks' mean, √(Σ wᵢ²) × {@code pairSpread} with wᵢ the
	 * share of the blocks pair i measured.
	 */
	public static List<ABComparison.Figure> figures(List<Block> blocks, double pairSpread) {
		return figures(blocks, pairSpread, 0);
	}

	/**
	 * The figures, each interval at a look widened by {@code widen} where it is above 0,
	 * else at the fixed count's own points.
	 */
	private static List<ABComparison.Figure> figures(List<Block> blocks, double pairSpread, double widen) {
		double pairs = pairSpread * Math.sqrt(blocks.stream()
			.collect(Collectors.groupingBy(Block::pair, Collectors.counting()))
			.values()
			.stream()
			.mapToDouble((count) -> Math.pow((double) count / blocks.size(), 2))
			.sum());
		return List.of(
				figure("ceiling", "rps", blocks, Block::baseCeilingRps, Block::headCeilingRps, true, pairs, widen),
				figure("throughput at the knee", "rps", blocks, Block::baseKneeRps, Block::headKneeRps, true, pairs,
						widen),
				figure("p99 at the knee", "ms", blocks, Block::baseKneeP99Ms, Block::headKneeP99Ms, false, pairs,
						widen));
	}

	/**
	 * The least half-width, on the log ratio, of an interval at a look from blocks shared
	 * evenly by {@code pairs} pairs of JVMs: the pairs' term alone, however many blocks.
	 */
	public static double pairsTerm(double pairSpread, int pairs) {
		return WIDEN * 1.96 * pairSpread / Math.sqrt(pairs);
	}

	/**
	 * The figures of {@code blocks} at a look of a sequential guard: each interval, the
	 * pairs' term included, widened by {@value #WIDEN} so that it stays honest however
	 * often the guard looked before ({@link TrimmedInterval#atALook}).
	 */
	public static List<ABComparison.Figure> atALook(List<Block> blocks, double pairSpread) {
		return figures(blocks, pairSpread, WIDEN);
	}

	/**
	 * What a sequential guard knows from {@code blocks} at {@code bound}: red as soon as
	 * a throughput figure's interval at this look ({@link #atALook}) lies wholly below
	 * it, green once each lies within it (an improvement where one lies wholly above),
	 * else one more block; one more block too after an odd count (A went first once more
	 * than B) or fewer than 4.
	 */
	public static Decision decide(List<Block> blocks, double pairSpread, double bound) {
		if (blocks.size() < FIRST_LOOK || blocks.size() % 2 != 0) {
			return Decision.MORE;
		}
		List<Decision> each = atALook(blocks, pairSpread).stream()
			.filter(ABComparison.Figure::higherIsBetter)
			.map((figure) -> switch (figure.change(bound)) {
				case REGRESSED -> Decision.REGRESSED;
				case IMPROVED -> Decision.IMPROVED;
				case NO_CHANGE -> Decision.WITHIN;
				case UNRESOLVED -> Decision.MORE;
			})
			.toList();
		return Stream.of(Decision.REGRESSED, Decision.MORE, Decision.IMPROVED)
			.filter(each::contains)
			.findFirst()
			.orElse(Decision.WITHIN);
	}

	private static ABComparison.Figure figure(String name, String unit, List<Block> blocks,
			ToDoubleFunction<Block> base, ToDoubleFunction<Block> head, boolean higherIsBetter, double pairs,
			double widen) {
		double[] logRatios = blocks.stream()
			.mapToDouble((block) -> Math.log(head.applyAsDouble(block) / base.applyAsDouble(block)))
			.toArray();
		TrimmedInterval interval = (widen > 0) ? TrimmedInterval.atALook(logRatios, widen)
				: TrimmedInterval.of(logRatios);
		double halfWidth = Math.hypot(interval.halfWidth(), ((widen > 0) ? widen : 1) * 1.96 * pairs);
		return new ABComparison.Figure(name, unit, blocks.stream().mapToDouble(base).average().orElse(0),
				blocks.stream().mapToDouble(head).average().orElse(0), Math.exp(interval.location()),
				Math.exp(interval.location() - halfWidth), Math.exp(interval.location() + halfWidth),
				Math.expm1(interval.spread()), higherIsBetter);
	}

	/** The blocks as a table for logs: A and B at each count. */
	public static String table(List<Block> blocks) {
		return blocks.stream()
			.map((b) -> String.format(Locale.ROOT, "A %.1f / B %.1f rps at the knee, A %.1f / B %.1f at the ceiling",
					b.baseKneeRps(), b.headKneeRps(), b.baseCeilingRps(), b.headCeilingRps()))
			.collect(Collectors.joining("; "));
	}

}
