package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

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
	 * A page's ladder after its rounds at two users: throughput doubles to 8 users and
	 * stops at 16, where a request took the most CPU of its own (38 ms, its compilers'
	 * 0.3 of a core over 26 rps less): the last rounds run at 16 users.
	 */
	@Test
	void theLastRoundsRunWhereARequestTookTheMostCpuOfItsOwn() {
		List<WarmUp.Round> ladder = List.of(rung(2, 8.1, 0.04, 22), rung(4, 15.8, 0.10, 24), rung(8, 24.0, 0.45, 50),
				rung(16, 26.0, 0.30, 50));

		assertThat(WarmUp.rose(ladder.subList(0, 3))).isTrue();
		assertThat(WarmUp.rose(ladder)).isFalse();
		// At 8 users 50 ms less 0.45 / 24 s = 31 ms of its own; at 16, 50 less 0.30 / 26
		// = 38.5 ms.
		assertThat(ladder.get(2).ownCpuPerRequest())
			.hasValueSatisfying((own) -> assertThat(own.toNanos() / 1e6).isCloseTo(31.25, offset(0.01)));
		assertThat(WarmUp.busiest(ladder)).isEqualTo(16);
		assertThat(WarmUp.busiest(List.of(latencyOnly(100), latencyOnly(90)))).isEqualTo(2);
	}

	@Test
	void itsLineSaysWhereItsLastRoundsRan() {
		WarmUp warmUp = new WarmUp(
				2, Duration.ofMillis(31_000), List.of(rung(2, 8.1, 0.04, 22), rung(4, 15.8, 0.10, 24),
						rung(8, 24.0, 0.45, 50), rung(8, 24.2, 0.05, 40), rung(8, 24.1, 0.03, 39)),
				true, Duration.ofMinutes(3));

		assertThat(warmUp.toString()).startsWith("warmed up in 31.0 s (2, 4, 8 users, the last rounds at 8): ");
		assertThat(warmUp.lastUsers()).isEqualTo(8);
		WarmUp busiestAtTwo = new WarmUp(2, Duration.ofMillis(9_000),
				List.of(rung(2, 8.1, 0.04, 22), rung(4, 15.8, 0.03, 12), rung(8, 24.0, 0.02, 9)), true,
				Duration.ofMinutes(3));
		assertThat(busiestAtTwo.toString()).as("a ladder that ends on its one round at 8")
			.startsWith("warmed up in 9.0 s (2, 4, 8 users): ");
	}

	/**
	 * A round of 1 s at {@code users} and {@code rps}, the compilers at
	 * {@code compilers}, {@code cpuMs} a request.
	 */
	private static WarmUp.Round rung(int users, double rps, double compilers, long cpuMs) {
		return new WarmUp.Round(users, Duration.ofSeconds(1), Duration.ofMillis(Math.round(users * 1000 / rps)), rps,
				OptionalDouble.of(compilers), Optional.of(Duration.ofMillis(cpuMs)));
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
