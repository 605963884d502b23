package dev.bottleneckkit.scenarios;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.OpenLoopLoad;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * S8 (seed 004's "know your dependency latency"): Toxiproxy between the caller and its
 * downstream makes the dependency slow or resets its connections. With Spring Boot's
 * defaults the caller waits as long as the dependency does; a configured read timeout
 * fails each call within its bound, with a clear error kind; reset connections are
 * counted, and the caller is healthy again once the network is.
 * <p>
 * The dependency turns 1 s slower and the fix's read timeout is 250 ms: the mechanism
 * needs a timeout well under the added latency and well over the healthy call (100 ms),
 * not the seed's seconds; a 2 s toxic only made each load turn longer.
 */
@Scenario(id = "S8", title = "A slow or failing dependency against the caller's timeouts")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlowDependencyTimeoutsIT {

	/** The downstream's own latency. */
	static final Duration DOWNSTREAM_LATENCY = Duration.ofMillis(100);

	/** What the network adds when the dependency turns slow. */
	static final Duration ADDED_LATENCY = Duration.ofSeconds(1);

	/**
	 * The caller's read timeout in the fix: a quarter of the slow dependency's latency.
	 */
	static final Duration READ_TIMEOUT = Duration.ofMillis(250);

	/**
	 * Users in the closed loop: fewer than the default pool's 5 connections, so the pool
	 * is not the cap.
	 */
	static final int USERS = 4;

	static final int PROXY_PORT = 8666;

	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(1))
		.forDuration(Duration.ofSeconds(4));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network)
		.withDefaultLatency(DOWNSTREAM_LATENCY);

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	/** Spring Boot's defaults: no read timeout. */
	@Container
	static final LabServiceContainer defaults = callerThroughProxy().withName("caller-defaults");

	@Container
	static final LabServiceContainer readTimeout = callerThroughProxy().withReadTimeout(READ_TIMEOUT)
		.withName("caller-read-timeout");

	static Proxy proxy;

	@BeforeAll
	static void proxyTheDownstream() {
		proxy = KitContainers.proxy(toxiproxy, "downstream", PROXY_PORT,
				LabServiceContainer.DOWNSTREAM_ALIAS + ":" + LabServiceContainer.PORT);
	}

	@AfterEach
	void healTheNetwork() {
		KitContainers.heal(proxy);
	}

	@Test
	@Order(1)
	void defaultTimeoutsWaitAsLongAsTheDependency(ScenarioReport report) throws IOException {
		proxy.toxics().latency("slow-dependency", ToxicDirection.DOWNSTREAM, ADDED_LATENCY.toMillis());

		LoadResult result = LOAD.named("defaults, slow dependency").run(defaults.uri("/call/sleep"));

		// The route's own latency on a healthy network, once the load has warmed the
		// caller: W₁ + the added latency is the model.
		healTheNetwork();
		Duration alone = ClosedLoopLoad.oneUser().run(defaults.uri("/call/sleep")).median();
		Duration slow = alone.plus(ADDED_LATENCY);
		Ceiling users = Ceiling.of(USERS, "users", slow);

		report.record("Spring Boot defaults, dependency " + added(), result, users, ScenarioReport
			.evidence("W₁ (one user, healthy network)", alone.toMillis() + " ms", "toxic", "latency " + added()));
		assertThat(result).as("no read timeout by default: every call waits the full W₁ %s", added())
			.hasNoErrors()
			.hasMeanLatencyNear(slow, withPercentage(25))
			.hasThroughputNear(users, withPercentage(15));
	}

	@Test
	@Order(2)
	void aReadTimeoutFailsEachCallWithinItsBound(ScenarioReport report) throws IOException {
		FailureMode timeout = FailureMode.of("http-504 read-timeout", READ_TIMEOUT,
				"the caller's " + READ_TIMEOUT.toMillis() + " ms read timeout, the dependency "
						+ ADDED_LATENCY.toMillis() + " ms slower");
		proxy.toxics().latency("slow-dependency", ToxicDirection.DOWNSTREAM, ADDED_LATENCY.toMillis());

		LoadResult result = LOAD.named("read timeout " + READ_TIMEOUT.toMillis() + " ms, slow dependency")
			.run(readTimeout.uri("/call/sleep"));

		double failuresPerSecond = result.errorsPerSecond();
		report.record("read timeout " + READ_TIMEOUT.toMillis() + " ms, dependency " + added(), result, timeout,
				Map.of("failures per second", Math.round(failuresPerSecond)));
		assertThat(result.succeeded()).as("nothing answers within %d ms", READ_TIMEOUT.toMillis()).isZero();
		assertThat(result.errors()).as("every failure is the caller's read timeout, mapped to 504")
			.containsOnlyKeys("http-504 read-timeout");
		assertThat(failuresPerSecond)
			.as("each call ends at the timeout: %d users fail %s times a second (L / W)", USERS,
					timeout.failuresPerSecondFor(result).orElseThrow())
			.isCloseTo(timeout.failuresPerSecondFor(result).orElseThrow(), withinPercentage(20));
	}

	@Test
	@Order(3)
	void resetConnectionsAreCountedAndTheCallerRecovers(ScenarioReport report) throws IOException {
		Ceiling healthy = Ceiling.of(1000, "connections (no cap at 20 rps)", DOWNSTREAM_LATENCY);
		OpenLoopLoad load = OpenLoopLoad.ratePerSecond(20).warmUp(Duration.ZERO).forDuration(Duration.ofSeconds(3));
		proxy.toxics().resetPeer("reset", ToxicDirection.DOWNSTREAM, 0);

		LoadResult reset = load.named("connections reset").run(defaults.uri("/call/sleep"));
		healTheNetwork();
		LoadResult recovered = load.named("after the network heals").run(defaults.uri("/call/sleep"));

		report.record("connections reset by the network", reset,
				FailureMode.of("http-502 connection-reset", Duration.ZERO,
						"the network resets every connection to the dependency (Toxiproxy reset_peer)"),
				Map.of("toxic", "reset_peer"));
		report.record("after the network heals", recovered, healthy, Map.of("toxic", "none"));
		assertThat(reset.succeeded()).as("no call gets through a resetting network").isZero();
		assertThat(reset.errors()).as("each reset is counted as the caller's connection-reset, mapped to 502")
			.containsOnlyKeys("http-502 connection-reset");
		assertThat(recovered).as("the caller is healthy again once the network is")
			.hasNoErrors()
			.hasThroughputNear(healthy, withPercentage(15))
			.hasMedianLatencyNear(DOWNSTREAM_LATENCY, withPercentage(50));
	}

	private static String added() {
		return "+" + ADDED_LATENCY.toSeconds() + " s";
	}

	private static LabServiceContainer callerThroughProxy() {
		return LabServiceContainer.callerOf(downstream).withDownstreamUrl("http://toxiproxy:" + PROXY_PORT);
	}

}
