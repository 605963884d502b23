package dev.bottleneckkit.sweep.internal.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * The pairs of JVMs an A/B run takes on a route the CPU may cap, and the spread between
 * them its intervals hold: the run's defaults, what the system properties set, and one
 * line for a value that is neither.
 */
class PairRunTest {

	@Test
	void twoPairsAndTheCalibratedSpreadUnlessTold() {
		withProperty(PairRun.PAIRS_PROPERTY, null, () -> assertThat(PairRun.pairsOfRun()).isEqualTo(2));
		withProperty(PairRun.PAIR_SPREAD_PROPERTY, null,
				() -> assertThat(PairRun.pairSpreadOfRun()).isEqualTo(PairRun.PAIR_SPREAD));
		withProperty(PairRun.PAIRS_PROPERTY, " 3 ", () -> assertThat(PairRun.pairsOfRun()).isEqualTo(3));
		withProperty(PairRun.PAIR_SPREAD_PROPERTY, "0.8 %",
				() -> assertThat(PairRun.pairSpreadOfRun()).isCloseTo(0.008, within(1e-12)));
		withProperty(PairRun.PAIR_SPREAD_PROPERTY, "0%", () -> assertThat(PairRun.pairSpreadOfRun()).isZero());
	}

	@Test
	void aValueThatIsNotOneIsRefusedInOneLine() {
		withProperty(PairRun.PAIRS_PROPERTY, "two",
				() -> assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(PairRun::pairsOfRun)
					.withMessage("-Dbottleneck.ab.pairs=two is not a number of pairs of JVMs: give 1 to 4,"
							+ " such as -Dbottleneck.ab.pairs=3"));
		withProperty(PairRun.PAIRS_PROPERTY, "9",
				() -> assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(PairRun::pairsOfRun)
					.withMessage("-Dbottleneck.ab.pairs must be between 1 and 4, was 9"));
		withProperty(PairRun.PAIR_SPREAD_PROPERTY, "0.013",
				() -> assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(PairRun::pairSpreadOfRun)
					.withMessageStartingWith("-Dbottleneck.ab.pair-spread=0.013 is not a spread: give a percentage"));
		withProperty(PairRun.PAIR_SPREAD_PROPERTY, "30%",
				() -> assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(PairRun::pairSpreadOfRun)
					.withMessage("-Dbottleneck.ab.pair-spread must be between 0.0 and 20.0, was 30.0"));
	}

	private static void withProperty(String property, String value, Runnable check) {
		String before = System.getProperty(property);
		if (value == null) {
			System.clearProperty(property);
		}
		else {
			System.setProperty(property, value);
		}
		try {
			check.run();
		}
		finally {
			if (before == null) {
				System.clearProperty(property);
			}
			else {
				System.setProperty(property, before);
			}
		}
	}

}
