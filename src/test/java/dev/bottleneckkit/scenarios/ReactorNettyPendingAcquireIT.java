package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.OpenLoopLoad;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;

/**
 * S6 (seed 000's WebClient): a caller on WebClient with a small Reactor Netty {@code ConnectionProvider},
 * offered four times what its connections can carry. Acquisitions beyond {@code maxConnections +
 * pendingAcquireMaxCount} fail at once with {@code PoolAcquirePendingLimitException}; waiting acquisitions
 * end at {@code pendingAcquireTimeout} with {@code PoolAcquireTimeoutException}. The caller maps both to
 * 503 with a kind. Time-to-fail follows the configured timeout (seed 000 waited 30 s).
 */
@Scenario(id = "S6", title = "Reactor Netty pool: pending-acquire limit and timeout")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReactorNettyPendingAcquireIT {

	static final Duration DOWNSTREAM_LATENCY = Duration.ofSeconds(1);

	/** The WebClient pool's connections: with 1 s calls, 5 rps. */
	static final int MAX_CONNECTIONS = 5;

	static final double OFFERED_RPS = 20;

	static final OpenLoopLoad LOAD = OpenLoopLoad.ratePerSecond(OFFERED_RPS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(8))
		.requestTimeout(Duration.ofSeconds(30));

	static final Ceiling CONNECTIONS = Ceiling.of(MAX_CONNECTIONS, "WebClient connections", DOWNSTREAM_LATENCY);

	static final Network network = KitResources.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network)
		.withDefaultLatency(DOWNSTREAM_LATENCY);

	@Test
	@Order(1)
	void acquisitionsBeyondConnectionsPlusPendingFailAtOnce(ScenarioReport report) {
		int pendingMax = MAX_CONNECTIONS;
		try (LabServiceContainer caller = LabServiceContainer.callerOf(downstream)
			.withVirtualThreads(true)
			.withWebClientPool(MAX_CONNECTIONS, pendingMax, Duration.ofSeconds(30))) {
			caller.start();
			ServiceGauges pool = ServiceGauges.on(caller).gauges(Gauge.REACTOR_ACTIVE, Gauge.REACTOR_PENDING).start();

			LoadResult result = LOAD.named("pending limit " + pendingMax).run(caller.uri("/call/webclient/sleep"));

			GaugeTimeline gauges = pool.stop();
			report.record("pendingAcquireMaxCount " + pendingMax + ", timeout 30 s", result, CONNECTIONS, evidence(result, gauges));
			assertThat(gauges.max(Gauge.REACTOR_ACTIVE)).as("the pool's connections all in use").hasValue(MAX_CONNECTIONS);
			assertThat(gauges.max(Gauge.REACTOR_PENDING)).as("acquisitions wait up to pendingAcquireMaxCount").hasValue(pendingMax);
			assertThat(result.errors()).as("one more acquisition fails with PoolAcquirePendingLimitException")
				.containsOnlyKeys("http-503 pool-pending-limit");
			assertThat(result.failureLatencyAt(99)).as("and fails at once, not after a timeout")
				.isLessThan(DOWNSTREAM_LATENCY.dividedBy(4));
			assertThat(result).as("the connections still carry connections / latency").hasThroughputNear(CONNECTIONS, 0.15);
		}
	}

	@Test
	@Order(2)
	void waitingAcquisitionsEndAtThePendingAcquireTimeout(ScenarioReport report) {
		Duration pendingTimeout = Duration.ofSeconds(1);
		try (LabServiceContainer caller = LabServiceContainer.callerOf(downstream)
			.withVirtualThreads(true)
			.withWebClientPool(MAX_CONNECTIONS, 1000, pendingTimeout)) {
			caller.start();
			ServiceGauges pool = ServiceGauges.on(caller).gauges(Gauge.REACTOR_ACTIVE, Gauge.REACTOR_PENDING).start();

			LoadResult result = LOAD.named("pending timeout 1 s").run(caller.uri("/call/webclient/sleep"));

			GaugeTimeline gauges = pool.stop();
			report.record("pendingAcquireTimeout 1 s, pending up to 1000", result, CONNECTIONS, evidence(result, gauges));
			assertThat(result.errors()).as("waits end with PoolAcquireTimeoutException")
				.containsOnlyKeys("http-503 pool-acquire-timeout");
			assertThat(result.failureLatencyAt(50)).as("time-to-fail follows the configured 1 s timeout")
				.isBetween(pendingTimeout.multipliedBy(9).dividedBy(10), pendingTimeout.multipliedBy(3).dividedBy(2));
			assertThat(result).as("the connections still carry connections / latency").hasThroughputNear(CONNECTIONS, 0.2);
		}
	}

	private static Map<String, Object> evidence(LoadResult result, GaugeTimeline gauges) {
		Map<String, Object> evidence = new LinkedHashMap<>(gauges.maxima());
		if (result.errorCount() > 0) {
			evidence.put("time to fail p50 / p99", result.failureLatencyAt(50).toMillis() + " / "
					+ result.failureLatencyAt(99).toMillis() + " ms");
		}
		return evidence;
	}

}
