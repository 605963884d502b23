package dev.bottleneckkit.sweep.internal.run;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The blocks' order: random, balanced over each pair, and replayed by its seed.
 */
class BlockOrderTest {

	@Test
	void afterEveryPairAHasGoneFirstAsOftenAsB() {
		for (long seed = 0; seed < 50; seed++) {
			BlockOrder order = new BlockOrder(seed);
			int baseFirst = 0;
			for (int block = 0; block < 16; block++) {
				baseFirst += order.baseFirst(block) ? 1 : 0;
				if (block % 2 == 1) {
					assertThat(baseFirst).as("seed %d after %d blocks", seed, block + 1).isEqualTo((block + 1) / 2);
				}
			}
		}
	}

	@Test
	void aSeedReplaysItsOrderAndSeedsDiffer() {
		assertThat(firsts(new BlockOrder(7), 16)).isEqualTo(firsts(new BlockOrder(7), 16));
		List<List<Boolean>> orders = new ArrayList<>();
		for (long seed = 0; seed < 20; seed++) {
			orders.add(firsts(new BlockOrder(seed), 16));
		}
		assertThat(orders.stream().distinct().count()).as("20 seeds, 256 orders of 8 pairs").isGreaterThan(15);
		assertThat(orders.stream().map((order) -> order.get(0)).distinct().count()).as("A first and B first")
			.isEqualTo(2);
	}

	@Test
	void aSeedThatIsNotANumberIsRefusedInOneLine() {
		String before = System.getProperty(BlockOrder.SEED_PROPERTY);
		System.setProperty(BlockOrder.SEED_PROPERTY, "tuesday");
		try {
			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(BlockOrder::ofRun)
				.withMessageStartingWith(
						"-Dbottleneck.ab.seed=tuesday is not a seed: give the number an A/B run printed");
			System.setProperty(BlockOrder.SEED_PROPERTY, " 42 ");
			assertThat(BlockOrder.ofRun().seed()).isEqualTo(42);
		}
		finally {
			if (before == null) {
				System.clearProperty(BlockOrder.SEED_PROPERTY);
			}
			else {
				System.setProperty(BlockOrder.SEED_PROPERTY, before);
			}
		}
	}

	private static List<Boolean> firsts(BlockOrder order, int blocks) {
		List<Boolean> firsts = new ArrayList<>();
		for (int block = 0; block < blocks; block++) {
			firsts.add(order.baseFirst(block));
		}
		return firsts;
	}

}
