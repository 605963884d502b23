package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.scenarios.lab.InFlightProbe.InFlight;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.BeforeEach;
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
 * S1 (seed 004, "Rest Template &amp; Connection Pool"): a caller whose RestClient runs on
 * Apache HttpClient 5, built as Spring Boot builds it, in front of a downstream that
 * answers in 500 ms. Boot leaves HttpClient's pool at 5 connections per route, so 40
 * users get 5 / 0.5 s = 10 rps and wait in the pool for the rest; sizing the pool for the
 * load restores 40 / 0.5 s = 80 rps. W is what the downstream measured itself: the mean
 * time a request spent in it during the run, which is how long a pooled connection is
 * held. The 500 ms is seed 004's, and the 10 rps it gives is the figure the seed
 * publishes, so this scenario keeps its clock.
 */
@Scenario(id = "S1", title = "RestClient on HttpClient 5: Spring Boot's default pool caps a route at 5 connections")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RestClientConnectionPoolIT {

	/** The downstream's latency: seed 004's stub waits 500 ms. */
	static final Duration DOWNSTREAM_LATENCY = Duration.ofMillis(500);

	/**
	 * Users in the closed loop: far more than 5, well under Tomcat's 200 threads on
	 * either side.
	 */
	static final int USERS = 40;

	/** HttpClient 5's connections per route, which Spring Boot 4 does not change. */
	static final int HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE = 5;

	/**
	 * 2 s to fill the pool and queue behind it; 8 s = 80 answers at the cap, 16 per
	 * connection.
	 */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(8));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network)
		.withDefaultLatency(DOWNSTREAM_LATENCY);

	@Container
	static final LabServiceContainer defaultPool = LabServiceContainer.callerOf(downstream)
		.withName("caller-default-pool");

	@Container
	static final LabServiceContainer sizedPool = LabServiceContainer.callerOf(downstream)
		.withMaxConnectionsPerRoute(USERS)
		.withMaxConnectionsTotal(USERS)
		.withName("caller-sized-pool");

	@BeforeEach
	void startANewInFlightWindow() {
		downstream.inFlight().reset();
	}

	@Test
	@Order(1)
	void defaultPoolCapsThroughputAtFivePerRoute(ScenarioReport report) {
		ServiceGauges callerGauges = ServiceGauges.on(defaultPool)
			.gauges(Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_PENDING)
			.start();

		LoadResult result = LOAD.named("Spring Boot's default pool").run(defaultPool.uri("/call/sleep"));

		GaugeTimeline callerSaw = callerGauges.stop();
		InFlight downstreamSaw = downstream.inFlight().read();
		Ceiling pool = Ceiling.of(HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE, "connections per route",
				downstreamSaw.meanServiceTime());
		report.record("default pool (5 per route)", result, pool, evidence(downstreamSaw, callerSaw),
				Map.of("caller", callerSaw));
		assertThat(downstreamSaw.peak())
			.as("the downstream never sees more than the pool's 5 connections, whatever the load (40 users)")
			.isEqualTo(HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE);
		assertThat(callerSaw.max(Gauge.HTTP_POOL_LEASED)).as("the caller's pool leases all 5 connections, no more")
			.hasValue(HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE);
		assertThat(callerSaw.max(Gauge.HTTP_POOL_PENDING).orElseThrow())
			.as("the other 35 users wait in the caller's pool for a connection")
			.isGreaterThanOrEqualTo(0.9 * (USERS - HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE));
		assertThat(result).as("default pool: throughput is the pool's Little's-law ceiling")
			.hasNoErrors()
			.hasThroughputNear(pool, withPercentage(15));
		assertThat(result).as("default pool: users wait for a connection, W = L / λ")
			.hasMeanLatencyAtLeast(2, DOWNSTREAM_LATENCY)
			.hasMeanLatencyNear(pool.latencyFor(USERS), withPercentage(25));
	}

	@Test
	@Order(2)
	void poolSizedForTheLoadLetsEveryUserThrough(ScenarioReport report) {
		ServiceGauges callerGauges = ServiceGauges.on(sizedPool)
			.gauges(Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_PENDING)
			.start();

		LoadResult result = LOAD.named("pool sized for the load").run(sizedPool.uri("/call/sleep"));

		GaugeTimeline callerSaw = callerGauges.stop();
		InFlight downstreamSaw = downstream.inFlight().read();
		Ceiling pool = Ceiling.of(USERS, "connections per route", downstreamSaw.meanServiceTime());
		report.record("pool sized for the load (40 per route)", result, pool, evidence(downstreamSaw, callerSaw),
				Map.of("caller", callerSaw));
		assertThat(downstreamSaw.peak()).as("with a connection per user, every user reaches the downstream at once")
			.isEqualTo(USERS);
		assertThat(callerSaw.max(Gauge.HTTP_POOL_PENDING)).as("nobody waits for a connection").hasValue(0);
		assertThat(result).as("sized pool: throughput is users / latency")
			.hasNoErrors()
			.hasThroughputNear(pool, withPercentage(15));
		assertThat(result).as("sized pool: nobody queues, latency is the downstream's own")
			.hasMeanLatencyNear(downstreamSaw.meanServiceTime(), withPercentage(25));
	}

	private static Map<String, Object> evidence(InFlight downstreamSaw, GaugeTimeline callerSaw) {
		return ScenarioReport.evidence("W at the downstream", downstreamSaw.meanServiceTime().toMillis() + " ms",
				"downstream peak in-flight", downstreamSaw.peak(), "caller pool leased max",
				format(callerSaw.max(Gauge.HTTP_POOL_LEASED)), "caller pool pending max",
				format(callerSaw.max(Gauge.HTTP_POOL_PENDING)));
	}

	private static String format(OptionalDouble value) {
		return value.isPresent() ? String.valueOf(Math.round(value.getAsDouble())) : "n/a";
	}

	/**
	 * Attribution: a sweep of each caller, knowing nothing of its pool, names what caps
	 * it.
	 */
	@Nested
	class Attribution {

		@Test
		void aSweepOfTheDefaultPoolNamesTheHttpClientPool(ScenarioReport report) {
			SweepResult sweep = Sweep.of(defaultPool, "/call/sleep")
				.named("S1 default pool")
				.watchingDownstream(downstream)
				.upToUsers(32)
				.run();

			report.record("sweep: Spring Boot's default pool", sweep);
			assertThat(sweep).isCappedBy(Resource.HTTP_CLIENT_POOL).hasCeilingNearItsModel(withPercentage(15));
			assertThat(sweep.verdict().readings().get("TCP connections"))
				.as("the caller's TCP connections to the downstream, read from its network namespace, agree: 5")
				.isEqualTo("downstream:8080 flat at " + HTTPCLIENT5_DEFAULT_MAX_PER_ROUTE + ": agrees");
		}

		@Test
		void aSweepOfThePoolSizedForTheLoadFindsNoCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(sizedPool, "/call/sleep")
				.named("S1 pool sized for 40")
				.watchingDownstream(downstream)
				.upToUsers(16)
				.run();

			report.record("sweep: pool sized for the load", sweep);
			assertThat(sweep).isNotCappedBy(Resource.HTTP_CLIENT_POOL).hasNoCap();
		}

	}

}
