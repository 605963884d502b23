package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.List;

import dev.bottleneckkit.model.Ceiling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * A load in turns between two servers of known caps: each user's next request goes to the
 * side whose turn it is, and each side's rate at full load reads its own cap, not the
 * other's drain. These servers are the hardest case for it: their threads run in step
 * (every request held exactly 20 or 25 ms), so that the work a side began during the
 * other's drain lands in its full load. Three runs read the ratio 0.812 to 0.814 for the
 * caps' 0.80, and each rate 2 to 4 % above its cap; counting whole answers there instead
 * of the requests' lives read 0.85 to 0.89. The ratio is held to the caps the servers
 * measured in the same run (their mean holds), not to the nominal 20 and 25 ms.
 */
@Execution(ExecutionMode.CONCURRENT)
class LoadInTurnsTest {

	private static final int THREADS = 4;

	private static final int USERS = 2 * THREADS;

	@Test
	void eachSidesRateAtFullLoadReadsItsOwnCapAndTheirRatioTheCapsRatio() throws Exception {
		Ceiling fast = Ceiling.of(THREADS, "server threads", Duration.ofMillis(20));
		Ceiling slow = Ceiling.of(THREADS, "server threads", Duration.ofMillis(25));
		try (LimitedServer first = LimitedServer.start(THREADS, Duration.ofMillis(20));
				LimitedServer second = LimitedServer.start(THREADS, Duration.ofMillis(25))) {

			LoadResult.InTurns turns = ClosedLoopLoad.users(USERS)
				.warmUp(Duration.ofSeconds(1))
				.forDuration(Duration.ofMillis(3900))
				.quiet()
				.runInTurns(Duration.ofMillis(200), false, List.of(Request.get(first.uri())),
						List.of(Request.get(second.uri())));

			assertThat(turns.turnsEach()).as("3.9 s rounded up to whole turns, as many each: 20 of 200 ms")
				.isEqualTo(10);
			assertThat(first.firstArrivals()).as("every user has a connection to each side").hasSize(USERS);
			assertThat(second.firstArrivals()).as("every user has a connection to each side").hasSize(USERS);
			assertThat(first.peakInFlight()).isEqualTo(THREADS);
			assertThat(second.peakInFlight()).isEqualTo(THREADS);
			assertThat(turns.firstSide().rate()).isPresent();
			assertThat(turns.firstSide().rate().getAsDouble())
				.as("the first side's rate at full load: its own cap, 4 / 20 ms")
				.isCloseTo(fast.requestsPerSecond(), withPercentage(15));
			assertThat(turns.secondSide().rate().getAsDouble()).as("the second side's: 4 / 25 ms")
				.isCloseTo(slow.requestsPerSecond(), withPercentage(15));
			// The caps' ratio from the holds the servers measured in this run: on busy
			// cores each sleep overshoots by a ms or two on both sides, which moves the
			// ratio of 20 / 25 ms toward 1 (a gate read 0.832).
			double holdsRatio = (double) first.meanHold().toNanos() / second.meanHold().toNanos();
			assertThat(holdsRatio).as("the holds measured: %s and %s", first.meanHold(), second.meanHold())
				.isCloseTo(fast.latency().toNanos() / (double) slow.latency().toNanos(), withPercentage(15));
			// Within 6 %: alone, six runs read the rates' ratio within 1 % of the holds'
			// (0.8146 against 0.8104 at most, under two busy loops too); the whole unit
			// suite, other classes loading the cores beside it, read 0.845 against 0.812
			// (4.0 %). 20 against 25 ms is a 20 % step.
			assertThat(turns.ratio().getAsDouble())
				.as("second over first: the servers' holds of %s over %s", first.meanHold(), second.meanHold())
				.isCloseTo(holdsRatio, withPercentage(6));
			for (LoadResult.InTurns.Side side : List.of(turns.firstSide(), turns.secondSide())) {
				assertThat(side.fullLoad()).as("the other side's drain, two of its latencies, leaves most of a turn")
					.isGreaterThan(Duration.ofMillis(10 * 200 / 2));
			}
			// The medians, 2 holds each (8 users on 4 threads: 40 and 50 ms), and not the
			// p99s: a request that met the other side's drain or a neighbour's burst sets
			// a p99, and a clean-clone run read the 20 ms side's at 56.6 ms, the 25 ms
			// side's at 55.7 ms.
			assertThat(turns.first().median()).as("each side's latencies are its own requests'")
				.isLessThan(turns.second().median());
		}
	}

	@Test
	void aLoadInTurnsRunsForADurationAndTurnsOfSensibleLength() throws Exception {
		try (LimitedServer server = LimitedServer.start(THREADS, Duration.ofMillis(1))) {
			List<Request> side = List.of(Request.get(server.uri()));
			assertThatIllegalStateException().isThrownBy(
					() -> ClosedLoopLoad.users(2).forRequests(100).runInTurns(Duration.ofMillis(500), true, side, side))
				.withMessage("a load in turns runs for a duration: give it forDuration(..) instead of 100 requests");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> ClosedLoopLoad.users(2).runInTurns(Duration.ofMillis(5), true, side, side))
				.withMessageContaining("turn");
		}
	}

}
