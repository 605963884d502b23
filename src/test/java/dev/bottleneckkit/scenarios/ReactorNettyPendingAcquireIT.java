package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.OpenLoopLoad;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * S6 (seed 000's WebClient): a caller on WebClient with a small Reactor Netty
 * {@code ConnectionProvider}, offered four times what its connections can carry.
 * Acquisitions beyond {@code maxConnections +
 * pendingAcquireMaxCount} fail at once with {@code PoolAcquirePendingLimitException};
 * waiting acquisitions end at {@code pendingAcquireTimeout} with
 * {@code PoolAcquireTimeoutException}. The caller maps both to 503 with a kind.
 * Time-to-fail follows the configured timeout (seed 000 waited 30 s).
 * <p>
 * The downstream holds 500 ms and the pending timeout is 500 ms: an open loop at four
 * times the pool shows both limits at that clock as well as at 1 s, in half the turns. At
 * 250 ms the open loop would send 80 rps, and on two cores its own CPU would start to
 * count. The loads warm up 4 s: run alone, the class read 7, 8, 10, 10 answers a second
 * in the pending-limit window after 2 s, its other callers just started and still
 * compiling (8.75 rps for the connections' 9.9, where the tolerance is 15 %), and 10 in
 * every second after 4 s. CPU taken beside a window bends it too (clean runs read 6, 9,
 * 10, 10 and 10, 10, 7, 9 while the next class set up its probes): docs/scenarios.md.
 */
@Scenario(id = "S6", title = "Reactor Netty pool: pending-acquire limit and timeout")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReactorNettyPendingAcquireIT {

	static final Duration DOWNSTREAM_LATENCY = Duration.ofMillis(500);

	/** The WebClient pool's connections: with 500 ms calls, 10 rps. */
	static final int MAX_CONNECTIONS = 5;

	static final double OFFERED_RPS = 40;

	static final OpenLoopLoad LOAD = OpenLoopLoad.ratePerSecond(OFFERED_RPS)
		.warmUp(Duration.ofSeconds(4))
		.forDuration(Duration.ofSeconds(4))
		.requestTimeout(Duration.ofSeconds(30));

	static final Duration PENDING_TIMEOUT = Duration.ofMillis(500);

	static final String ROUTE = "/call/webclient/sleep";

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network)
		.withDefaultLatency(DOWNSTREAM_LATENCY);

	/**
	 * Acquisitions may wait, up to as many as there are connections, for as long as 30 s.
	 */
	@Container
	static final LabServiceContainer pendingLimit = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withWebClientPool(MAX_CONNECTIONS, MAX_CONNECTIONS, Duration.ofSeconds(30))
		.withName("caller-pending-limit");

	/** Any number may wait, for 1 s. */
	@Container
	static final LabServiceContainer pendingTimeout = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withWebClientPool(MAX_CONNECTIONS, 1000, PENDING_TIMEOUT)
		.withName("caller-pending-timeout");

	/** The fix, for the attribution test: a pool sized for the load. */
	@Container
	static final LabServiceContainer sizedPool = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withWebClientPool(32, 1000, Duration.ofSeconds(30))
		.withName("caller-pool-32");

	@Test
	@Order(1)
	void acquisitionsBeyondConnectionsPlusPendingFailAtOnce(ScenarioReport report) {
		downstream.inFlight().reset();
		ServiceGauges pool = ServiceGauges.on(pendingLimit).gauges(Gauge.REACTOR_ACTIVE, Gauge.REACTOR_PENDING).start();

		LoadResult result = LOAD.named("pending limit " + MAX_CONNECTIONS).run(pendingLimit.uri(ROUTE));

		GaugeTimeline gauges = pool.stop();
		Duration held = downstream.inFlight().read().meanServiceTime();
		Ceiling connections = Ceiling.of(MAX_CONNECTIONS, "WebClient connections", held);
		report.record("pendingAcquireMaxCount " + MAX_CONNECTIONS + ", timeout 30 s", result, connections,
				evidence(held, result, gauges), Map.of("caller", gauges));
		assertThat(gauges.max(Gauge.REACTOR_ACTIVE)).as("the pool's connections all in use").hasValue(MAX_CONNECTIONS);
		// reactor-pool queues a borrower first and culls those beyond
		// pendingAcquireMaxCount after (SimpleDequePool's pendingOffer, "best effort"): a
		// sample taken between the two reads more, 9 for 5 under a CPU hog. What holds is
		// that acquisitions waited up to the limit, and that the ones beyond it failed at
		// once (below).
		assertThat(gauges.max(Gauge.REACTOR_PENDING).orElse(0)).as("acquisitions wait up to pendingAcquireMaxCount")
			.isGreaterThanOrEqualTo(MAX_CONNECTIONS);
		assertThat(result.errors()).as("one more acquisition fails with PoolAcquirePendingLimitException")
			.containsOnlyKeys("http-503 pool-pending-limit");
		// At once: a failure's median took 5-6 ms in five runs, against the 500 ms a
		// connection is held. Its p99 rides the caller's stalls (60-558 ms in the same
		// runs: a half-second pause in one), far from the 30 s timeout.
		assertThat(result.failureLatencyAt(50)).as("and fails at once, without waiting for a connection")
			.isLessThan(DOWNSTREAM_LATENCY.dividedBy(10));
		assertThat(result.failureLatencyAt(99)).as("and none waited for the 30 s pending timeout")
			.isLessThan(Duration.ofSeconds(3));
		assertThat(result).as("the connections still carry connections / latency")
			.hasThroughputNear(connections, withPercentage(15));
	}

	@Test
	@Order(2)
	void waitingAcquisitionsEndAtThePendingAcquireTimeout(ScenarioReport report) {
		downstream.inFlight().reset();
		ServiceGauges pool = ServiceGauges.on(pendingTimeout)
			.gauges(Gauge.REACTOR_ACTIVE, Gauge.REACTOR_PENDING)
			.start();

		LoadResult result = LOAD.named("pending timeout " + PENDING_TIMEOUT.toMillis() + " ms")
			.run(pendingTimeout.uri(ROUTE));

		GaugeTimeline gauges = pool.stop();
		Duration held = downstream.inFlight().read().meanServiceTime();
		Ceiling connections = Ceiling.of(MAX_CONNECTIONS, "WebClient connections", held);
		report.record("pendingAcquireTimeout " + PENDING_TIMEOUT.toMillis() + " ms, pending up to 1000", result,
				connections, evidence(held, result, gauges), Map.of("caller", gauges));
		assertThat(result.errors()).as("waits end with PoolAcquireTimeoutException")
			.containsOnlyKeys("http-503 pool-acquire-timeout");
		assertThat(result.failureLatencyAt(50)).as("time-to-fail follows the configured timeout")
			.isBetween(PENDING_TIMEOUT.multipliedBy(9).dividedBy(10), PENDING_TIMEOUT.multipliedBy(3).dividedBy(2));
		assertThat(result).as("the connections still carry connections / latency")
			.hasThroughputNear(connections, withPercentage(15));
	}

	private static Map<String, Object> evidence(Duration held, LoadResult result, GaugeTimeline gauges) {
		Map<String, Object> evidence = ScenarioReport.evidence("W at the downstream", held.toMillis() + " ms");
		evidence.putAll(gauges.maxima());
		if (result.errorCount() > 0) {
			evidence.put("time to fail p50 / p99",
					result.failureLatencyAt(50).toMillis() + " / " + result.failureLatencyAt(99).toMillis() + " ms");
		}
		return evidence;
	}

	/**
	 * Attribution: a sweep of the WebClient caller with 5 connections, and of one with a
	 * pool sized for the load.
	 */
	@Nested
	class Attribution {

		@Test
		void aSweepOfFiveConnectionsNamesReactorNettysPool(ScenarioReport report) {
			SweepResult sweep = Sweep.of(pendingTimeout, ROUTE)
				.named("S6 WebClient, 5 connections")
				.watchingDownstream(downstream)
				.upToUsers(16)
				.confirming(Knob.of("Reactor Netty pool " + 2 * MAX_CONNECTIONS, 2,
						(caller) -> pendingTimeout.withWebClientPool(2 * MAX_CONNECTIONS, 1000, PENDING_TIMEOUT)))
				.run();

			report.record("sweep: WebClient pool of 5", sweep);
			assertThat(sweep).isCappedBy(Resource.REACTOR_NETTY_POOL)
				.hasCeilingNearItsModel(withPercentage(15))
				.isConfirmedWithin(withPercentage(10));
		}

		@Test
		void aSweepOfAPoolSizedForTheLoadFindsNoCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(sizedPool, ROUTE)
				.named("S6 WebClient, 32 connections")
				.watchingDownstream(downstream)
				.upToUsers(16)
				.run();

			report.record("sweep: WebClient pool of 32", sweep);
			assertThat(sweep).isNotCappedBy(Resource.REACTOR_NETTY_POOL).hasNoCap();
		}

	}

}
