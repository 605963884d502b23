package dev.bottleneckkit.sweep.internal.analysis;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import dev.bottleneckkit.sweep.ABComparison;

/**
 * One interleaved block: A and B at the knee's users and at the ceiling's, each the mean
 * of its loads in the block, measured on pair {@code pair} of JVMs (0 the first: the
 * test's service and the base beside it).
 */
public record Block(double baseKneeRps, double headKneeRps, double baseKneeP99Ms, double headKneeP99Ms,
		double baseCeilingRps, double headCeilingRps, int pair) {

	/**
	 * Blocks after which a comparison known to {@value #EARLY_PRECISION} stops: two
	 * pairs, A first in one of each.
	 */
	static final int EARLY_BLOCKS = 4;

	/**
	 * The half-width, on the ratio, at which {@value #EARLY_BLOCKS} blocks are enough:
	 * blocks spread by ±0.2 % or less, as a capacity cap's are. Four blocks trim none, so
	 * one bad block moves their mean, but it spreads them too: blocks that agree this
	 * closely hold none more than about 0.4 % from the others, which moves the mean 0.1 %
	 * at most. A ratio known this well is red at a bound b for any change beyond b + 0.5
	 * % ({@code bench/ab-interval-sim.py --stopping}).
	 */
	static final double EARLY_PRECISION = 0.005;

	/**
	 * Blocks every comparison not known to {@value #EARLY_PRECISION} after
	 * {@value #EARLY_BLOCKS} measures, at least: the fewest whose trimmed interval leaves
	 * a block out at each end, and an even number puts A first as often as B.
	 */
	static final int MIN_BLOCKS = 6;

	/**
	 * The half-width, on the ratio, at which the throughput figures are known well enough
	 * to stop adding blocks.
	 */
	static final double PRECISION = 0.025;

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
		double pairs = pairSpread * Math.sqrt(blocks.stream()
			.collect(Collectors.groupingBy(Block::pair, Collectors.counting()))
			.values()
			.stream()
			.mapToDouble((count) -> Math.pow((double) count / blocks.size(), 2))
			.sum());
		return List.of(figure("ceiling", "rps", blocks, Block::baseCeilingRps, Block::headCeilingRps, true, pairs),
				figure("throughput at the knee", "rps", blocks, Block::baseKneeRps, Block::headKneeRps, true, pairs),
				figure("p99 at the knee", "ms", blocks, Block::baseKneeP99Ms, Block::headKneeP99Ms, false, pairs));
	}

	/**
	 * Whether the throughput figures of {@code blocks} are known well enough to stop,
	 * after an even number of blocks (as many began with A as with B): to
	 * {@value #EARLY_PRECISION} after {@value #EARLY_BLOCKS}, to {@value #PRECISION}
	 * after {@value #MIN_BLOCKS} or more.
	 */
	public static boolean precise(List<Block> blocks) {
		int n = blocks.size();
		if (n % 2 != 0 || (n != EARLY_BLOCKS && n < MIN_BLOCKS)) {
			return false;
		}
		double wanted = (n >= MIN_BLOCKS) ? PRECISION : EARLY_PRECISION;
		return figures(blocks).stream()
			.filter(ABComparison.Figure::higherIsBetter)
			.allMatch((figure) -> figure.halfWidth() <= wanted);
	}

	private static ABComparison.Figure figure(String name, String unit, List<Block> blocks,
			ToDoubleFunction<Block> base, ToDoubleFunction<Block> head, boolean higherIsBetter, double pairs) {
		double[] logRatios = blocks.stream()
			.mapToDouble((block) -> Math.log(head.applyAsDouble(block) / base.applyAsDouble(block)))
			.toArray();
		TrimmedInterval interval = TrimmedInterval.of(logRatios);
		double halfWidth = Math.hypot(interval.halfWidth(), 1.96 * pairs);
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
