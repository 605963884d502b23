package dev.bottleneckkit.containers;

import java.time.Duration;

import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * The downstream stand-in, as a team would use it: slowed, thread-capped, failing, and
 * read back.
 */
@Scenario(id = "K4", title = "The downstream stand-in: latency, threads, statuses, resets")
class DownstreamContainerIT {

	static final Duration LATENCY = Duration.ofMillis(300);

	static final int THREADS = 3;

	@Container
	static final DownstreamContainer downstream = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/slow").latency(LATENCY).bodyBytes(512))
		.withRoute(DownstreamContainer.route("/spread").latencyBetween(Duration.ofMillis(100), Duration.ofMillis(300)))
		.withRoute(DownstreamContainer.route("/unavailable").latency(Duration.ofMillis(20)).status(503))
		.withRoute(DownstreamContainer.route("/resets").latency(Duration.ofMillis(20)).resetting())
		.withThreads(THREADS);

	@Test
	void itsThreadsCapTheRouteAsTomcatsWould() {
		Ceiling threads = Ceiling.of(THREADS, "stand-in threads", LATENCY);
		downstream.resetInFlight();

		LoadResult result = ClosedLoopLoad.users(3 * THREADS)
			.warmUp(Duration.ofMillis(600))
			.forDuration(Duration.ofSeconds(3))
			.named("stand-in, 3 threads")
			.run(downstream.uri("/slow"));

		DownstreamContainer.InFlight seen = downstream.inFlight();
		assertThat(seen.peak()).as("never more requests held than its threads").isEqualTo(THREADS);
		assertThat(seen.meanServiceTime()).as("each held for its latency").isBetween(LATENCY, LATENCY.plusMillis(30));
		assertThat(result).as("threads / latency, the users queueing")
			.hasNoErrors()
			.hasThroughputNear(threads, withPercentage(15));
	}

	@Test
	void latenciesStatusesAndResetsAreWhatTheRoutesSay() throws Exception {
		LoadResult spread = ClosedLoopLoad.users(2)
			.warmUp(Duration.ZERO)
			.forDuration(Duration.ofSeconds(2))
			.named("uniform 100-300 ms")
			.run(downstream.uri("/spread"));
		LoadResult unavailable = ClosedLoopLoad.users(1)
			.warmUp(Duration.ZERO)
			.forDuration(Duration.ofSeconds(1))
			.named("503s")
			.run(downstream.uri("/unavailable"));
		LoadResult resets = ClosedLoopLoad.users(1)
			.warmUp(Duration.ZERO)
			.forDuration(Duration.ofSeconds(1))
			.named("resets")
			.run(downstream.uri("/resets"));
		LoadResult unknown = ClosedLoopLoad.users(1)
			.warmUp(Duration.ZERO)
			.forRequests(3)
			.named("no route")
			.run(downstream.uri("/nope"));

		assertThat(spread.meanLatency()).as("uniform between 100 and 300 ms: about 200 on average")
			.isBetween(Duration.ofMillis(150), Duration.ofMillis(260));
		assertThat(unavailable.errors()).as("the status it was told").containsOnlyKeys("http-503");
		assertThat(resets.errors().keySet()).as("a reset, as the client sees it")
			.isNotEmpty()
			.allMatch((kind) -> kind.equals("connection-reset") || kind.equals("connection-closed"));
		assertThat(unknown.errors()).as("an unknown route answers 404 naming the routes")
			.containsOnlyKeys("http-404 no-route");
		assertThat(downstream.execInContainer("id", "-u").getStdout().trim()).as("runs as a non-root user")
			.isEqualTo("10001");
	}

	/**
	 * A service with no Actuator and its JMX agent off: the sweep goes on with what it
	 * can read and its verdict says, in one line each, what it could not see and what to
	 * change.
	 */
	@Test
	void aSweepOfAServiceItCannotSeeIntoSaysWhatWasBlind() {
		SweepResult sweep = Sweep.of(downstream, "/slow").named("K4 stand-in, blind").upToUsers(8).run();

		assertThat(sweep.blind()).as("what the probes could not see")
			.anySatisfy((line) -> org.assertj.core.api.Assertions.assertThat(line)
				.isEqualTo("meters: 404 at /actuator/metrics, 404 at /actuator/prometheus, 404 at /q/metrics, 404 at"
						+ " /metrics, 404 at /prometheus — expose \"metrics\" or \"prometheus\""
						+ " (management.endpoints.web.exposure.include), or Hikari, Tomcat and pool meters cannot be read"))
			.anySatisfy((line) -> org.assertj.core.api.Assertions.assertThat(line)
				.isEqualTo("thread dumps, pinned threads and carriers: the service's JMX agent is off (withoutJmx());"
						+ " leave it on to see locks, thread pools and pinning"));
		org.assertj.core.api.Assertions.assertThat(sweep.verdict().line())
			.as("an unexplained verdict lists what was blind beside what was seen")
			.contains("; blind: ", "meters: 404 at /actuator/metrics", "the service's JMX agent is off");
	}

}
