package dev.bottleneckkit.load;

import java.time.Duration;

import dev.bottleneckkit.model.Ceiling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Percentage.withPercentage;

@Execution(ExecutionMode.CONCURRENT)
class OpenLoopLoadTest {

	private static final Duration LATENCY = Duration.ofMillis(100);

	@Test
	void deliversTheOfferedRateWhenTheServerKeepsUp() throws Exception {
		Ceiling fourThreads = Ceiling.of(4, "server threads", LATENCY);
		try (LimitedServer server = LimitedServer.start(4, LATENCY)) {

			LoadResult result = OpenLoopLoad.ratePerSecond(20)
				.warmUp(Duration.ofSeconds(1))
				.forDuration(Duration.ofSeconds(3))
				.run(server.uri());

			assertThat(result).as("20 rps offered, 40 rps possible")
				.hasNoErrors()
				.hasThroughputNear(fourThreads, withPercentage(15))
				.hasMedianLatencyNear(LATENCY, withPercentage(30));
		}
	}

	@Test
	void chargesQueueingToTheRequestsThatWaitedNoCoordinatedOmission() throws Exception {
		Ceiling oneThread = Ceiling.of(1, "server threads", LATENCY);
		try (LimitedServer server = LimitedServer.start(1, LATENCY)) {

			LoadResult result = OpenLoopLoad.ratePerSecond(20)
				.warmUp(Duration.ofSeconds(1))
				.forDuration(Duration.ofSeconds(3))
				.run(server.uri());

			assertThat(result).as("20 rps offered to a 10 rps server: it completes 10 rps")
				.hasThroughputNear(oneThread, withPercentage(15));
			assertThat(result).as("the backlog grows 10 requests a second; latency counts from each intended start")
				.hasMedianLatencyAtLeast(5, LATENCY);
		}
	}

	@Test
	void neverHasMoreThanMaxOutstandingInFlight() throws Exception {
		// Requests outlive the run, so none is abandoned by the client while the server
		// still holds it.
		try (LimitedServer stalled = LimitedServer.start(20, Duration.ofSeconds(2))) {

			LoadResult result = OpenLoopLoad.ratePerSecond(50)
				.maxOutstanding(5)
				.warmUp(Duration.ZERO)
				.forDuration(Duration.ofSeconds(1))
				.run(stalled.uri());

			assertThat(stalled.peakInFlight()).as("a stalled server sees at most maxOutstanding requests")
				.isLessThanOrEqualTo(5);
			assertThat(result.errors()).as("arrivals past the bound are counted, not sent")
				.containsKey("outstanding-limit");
		}
	}

	@Test
	void rejectsBadKnobsNamingTheRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> OpenLoopLoad.ratePerSecond(0))
			.withMessage("rate must be between 0.1 and 100000.0, was 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> OpenLoopLoad.ratePerSecond(1).maxOutstanding(0))
			.withMessage("maxOutstanding must be between 1 and 10000, was 0");
	}

}
