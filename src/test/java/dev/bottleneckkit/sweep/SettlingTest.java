package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A side settles at the ceiling's users when its compilers took at most a tenth of a core
 * over the last two seconds, and says how they fell.
 */
class SettlingTest {

	@Test
	void compilersUnderATenthOfACoreOverTwoSecondsAreQuietAtTheCeiling() {
		List<WarmUp.Round> busy = List.of(round(1500, 0.45), round(1500, 0.14));
		List<WarmUp.Round> settled = List.of(round(1500, 0.45), round(1500, 0.14), round(1500, 0.07),
				round(1500, 0.04));

		assertThat(WarmUp.quiet(busy, Settling.QUIET)).isFalse();
		assertThat(WarmUp.quiet(settled, Settling.QUIET)).isTrue();
		assertThat(WarmUp.quiet(settled)).as("a warm-up's twentieth is stricter").isFalse();
	}

	@Test
	void itSaysHowTheCompilersFell() {
		Settling settling = new Settling(16, List.of(round(1500, 0.45), round(1500, 0.06), round(1500, 0.04)), true,
				Duration.ofMillis(4620));
		Settling unread = new Settling(16, List.of(), false, Duration.ZERO);

		assertThat(settling).hasToString("the compilers 0.45 → 0.06 → 0.04 of a core in 4.6 s, quiet");
		assertThat(unread).hasToString("its compilers not read");
	}

	private static WarmUp.Round round(long millis, double compilers) {
		return new WarmUp.Round(Duration.ofMillis(millis), Duration.ofMillis(40), OptionalDouble.of(compilers),
				Optional.empty());
	}

}
