package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a warm-up is done: its compilers quiet over the last two seconds and a request's
 * CPU no longer falling, whatever the latency says; the latency alone only where the
 * compilers cannot be read.
 */
class WarmUpTest {

	/**
	 * The outside app of a fresh JVM: its latency settled at the second round (the
	 * database's 20 ms), while its compilers still took most of a core and a request's
	 * CPU fell from 186 to 31 ms. Not done until the compilers are quiet.
	 */
	@Test
	void aSettledLatencyWithBusyCompilersIsNotWarm() {
		List<WarmUp.Round> rounds = List.of(round(1162, 0.92, 186), round(174, 0.71, 61), round(165, 0.40, 31));

		assertThat(WarmUp.settled(rounds)).isFalse();
	}

	@Test
	void quietCompilersOverTwoSecondsAndASteadyCpuAreWarm() {
		List<WarmUp.Round> rounds = List.of(round(1162, 0.92, 186), round(165, 0.40, 31), round(160, 0.04, 19),
				round(161, 0.02, 18));

		assertThat(WarmUp.settled(rounds)).isTrue();
	}

	/** One quiet second after a busy one is a lull, not the end of compiling. */
	@Test
	void oneQuietSecondIsNotEnough() {
		List<WarmUp.Round> rounds = List.of(round(165, 0.40, 31), round(160, 0.30, 20), round(161, 0.01, 19));

		assertThat(WarmUp.quiet(rounds)).isFalse();
		assertThat(WarmUp.settled(rounds)).isFalse();
	}

	/** Quiet compilers while a request's CPU still falls by a third: not yet. */
	@Test
	void aRequestsCpuStillFallingIsNotWarm() {
		List<WarmUp.Round> rounds = List.of(round(165, 0.03, 30), round(160, 0.02, 20));

		assertThat(WarmUp.quiet(rounds)).isTrue();
		assertThat(WarmUp.settled(rounds)).isFalse();
	}

	@Test
	void withoutTheCompilersTheLatencyDecides() {
		List<WarmUp.Round> rounds = List.of(latencyOnly(1235), latencyOnly(400), latencyOnly(158), latencyOnly(150));

		assertThat(WarmUp.settled(rounds)).isTrue();
		assertThat(WarmUp.settled(rounds.subList(0, 3))).isFalse();
	}

	@Test
	void itsLineSaysHowTheCompilersAndTheCpuWent() {
		WarmUp done = new WarmUp(2, Duration.ofMillis(14_200),
				List.of(round(1162, 0.92, 186), round(165, 0.04, 19), round(161, 0.02, 18)), true,
				Duration.ofSeconds(60));
		WarmUp cut = new WarmUp(2, Duration.ofSeconds(60), List.of(round(1162, 0.92, 186), round(165, 0.40, 31)), false,
				Duration.ofSeconds(60));

		assertThat(done).hasToString("warmed up in 14.2 s (2 users): the compilers 0.92 → 0.04 → 0.02 of a core,"
				+ " a request's CPU 186 → 19 → 18 ms, quiet");
		assertThat(cut.toString())
			.endsWith("not quiet when the warm-up's 60 s ran out: the steps say where the compilers still worked");
	}

	/**
	 * A round of 1 s at {@code meanMs}, the compilers at {@code compilers}, {@code cpuMs}
	 * a request.
	 */
	private static WarmUp.Round round(long meanMs, double compilers, long cpuMs) {
		return new WarmUp.Round(Duration.ofSeconds(1), Duration.ofMillis(meanMs), OptionalDouble.of(compilers),
				Optional.of(Duration.ofMillis(cpuMs)));
	}

	private static WarmUp.Round latencyOnly(long meanMs) {
		return new WarmUp.Round(Duration.ofSeconds(1), Duration.ofMillis(meanMs), OptionalDouble.empty(),
				Optional.empty());
	}

}
