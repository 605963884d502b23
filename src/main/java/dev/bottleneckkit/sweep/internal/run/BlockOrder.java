package dev.bottleneckkit.sweep.internal.run;

import java.security.SecureRandom;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * Which side of an A/B run goes first in each block, drawn at random and balanced: the
 * blocks come in pairs, and a coin decides whether a pair is A B then B A, or B A then A
 * B, so that after every even block A has gone first as often as B and no rhythm of the
 * machine (a timer, a neighbour's cron, a GC cycle) can line up with one side. The seed
 * replays the order: {@code -Dbottleneck.ab.seed=SEED}.
 */
final class BlockOrder {

	/** The system property that replays an order. */
	static final String SEED_PROPERTY = "bottleneck.ab.seed";

	private final long seed;

	private final SplittableRandom random;

	private final BitSet pairs = new BitSet();

	private int drawn;

	BlockOrder(long seed) {
		this.seed = seed;
		this.random = new SplittableRandom(seed);
	}

	/**
	 * The order the run names with {@value #SEED_PROPERTY}, or a new one; a seed that is
	 * not a number is refused in one line.
	 */
	static BlockOrder ofRun() {
		String value = System.getProperty(SEED_PROPERTY);
		if (value == null || value.isBlank()) {
			return new BlockOrder(new SecureRandom().nextLong());
		}
		try {
			return new BlockOrder(Long.parseLong(value.trim()));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("-D" + SEED_PROPERTY + "=" + value
					+ " is not a seed: give the number an A/B run printed (a long, such as -D" + SEED_PROPERTY
					+ "=-4214539183170398201)", ex);
		}
	}

	/** The seed that replays this order. */
	long seed() {
		return this.seed;
	}

	/** Whether A goes first in block {@code block} (0 is the first). */
	boolean baseFirst(int block) {
		int pair = block / 2;
		while (this.drawn <= pair) {
			this.pairs.set(this.drawn++, this.random.nextBoolean());
		}
		return this.pairs.get(pair) == (block % 2 == 0);
	}

}
