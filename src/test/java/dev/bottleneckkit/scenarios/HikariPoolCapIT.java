package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.scenarios.lab.JdbcDriver;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
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
import org.testcontainers.mysql.MySQLContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.awaitility.Awaitility.await;

/**
 * S4 (seed 002's caveats): with virtual threads, threads stop being the cap and the
 * connection pool takes their place. 12 users run {@code SELECT SLEEP(0.5)} through a
 * Hikari pool of 4: throughput is 4 / W and the other users wait in Hikari (pending), W
 * being how long one use held a connection in the run (Hikari's own usage timer). A short
 * {@code connectionTimeout} turns that wait into a clear 503 {@code db-pool-timeout}. The
 * fix: a pool sized for the load.
 * <p>
 * The query holds half a second, not the seed's second: Hikari refuses a
 * {@code connectionTimeout} under 250 ms, and the timeout test needs waits for a
 * connection that outlast it. 500 ms is the shortest hold that leaves them clearly
 * longer, and it halves the class's load turns.
 */
@Scenario(id = "S4", title = "Virtual threads: the connection pool is the new cap")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HikariPoolCapIT {

	static final Duration QUERY = Duration.ofMillis(500);

	static final int POOL = 4;

	static final int USERS = 12;

	static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(250);

	/** 5 s: 40 answers at the cap, 10 per connection. */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(1))
		.forDuration(Duration.ofSeconds(5));

	static final String ROUTE = "/db/sleep?seconds=" + QUERY.toMillis() / 1000.0;

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final LabServiceContainer smallPool = virtualThreadCaller(POOL).withName("caller-pool-4");

	@Container
	static final LabServiceContainer smallPoolShortTimeout = virtualThreadCaller(POOL)
		.withDbConnectionTimeout(CONNECTION_TIMEOUT)
		.withName("caller-pool-4-timeout-500ms");

	@Container
	static final LabServiceContainer sizedPool = virtualThreadCaller(USERS).withName("caller-pool-12");

	@Test
	@Order(1)
	void aPoolSmallerThanTheUsersCapsThroughputAndQueuesTheRest(ScenarioReport report) {
		Run run = run(smallPool);

		Ceiling pool = Ceiling.of(POOL, "Hikari connections", run.held());
		report.record("pool " + POOL + ", " + USERS + " users", run.result, pool, run.evidence(),
				Map.of("caller", run.hikari));
		assertThat(run.hikari.max(Gauge.HIKARI_ACTIVE)).as("every connection in use").hasValue(POOL);
		assertThat(run.hikari.max(Gauge.HIKARI_PENDING).orElseThrow()).as("the other users wait in Hikari")
			.isGreaterThanOrEqualTo(0.75 * (USERS - POOL));
		assertThat(run.result).as("the pool is the cap: connections / query time")
			.hasNoErrors()
			.hasThroughputNear(pool, withPercentage(15))
			.hasMeanLatencyNear(pool.latencyFor(USERS), withPercentage(25));
	}

	@Test
	@Order(2)
	void aShortConnectionTimeoutFailsTheWaitWithAClearStatus(ScenarioReport report) {
		Run run = run(smallPoolShortTimeout);

		Ceiling pool = Ceiling.of(POOL, "Hikari connections", run.held());
		report.record("pool " + POOL + ", connectionTimeout " + CONNECTION_TIMEOUT.toMillis() + " ms", run.result, pool,
				run.evidence(), Map.of("caller", run.hikari));
		assertThat(run.result.errors()).as("a wait past connectionTimeout is a 503 db-pool-timeout")
			.containsOnlyKeys("http-503 db-pool-timeout");
		assertThat(run.result.failureLatencyAt(50)).as("and ends at the 250 ms timeout")
			.isBetween(CONNECTION_TIMEOUT.multipliedBy(9).dividedBy(10), CONNECTION_TIMEOUT.multipliedBy(2));
		assertThat(run.result).as("the connections keep serving their 4 per W")
			.hasThroughputNear(pool, withPercentage(15));
	}

	@Test
	@Order(3)
	void aPoolSizedForTheLoadLetsEveryUserQueryAtOnce(ScenarioReport report) {
		Run run = run(sizedPool);

		Ceiling users = Ceiling.of(USERS, "users (pool sized for them)", run.held());
		report.record("pool " + USERS + " (sized for the load)", run.result, users, run.evidence(),
				Map.of("caller", run.hikari));
		assertThat(run.hikari.max(Gauge.HIKARI_PENDING)).as("nobody waits for a connection").hasValue(0);
		assertThat(run.result).as("users / query time")
			.hasNoErrors()
			.hasThroughputNear(users, withPercentage(15))
			.hasMeanLatencyNear(run.held(), withPercentage(25));
	}

	private static LabServiceContainer virtualThreadCaller(int poolSize) {
		return LabServiceContainer.caller(network)
			.withVirtualThreads(true)
			.withMySql(mysql, JdbcDriver.MYSQL_CONNECTOR_J_9_7_0, poolSize);
	}

	/**
	 * Loads the db route once Hikari has opened its whole pool: it opens connections in
	 * the background after the first one (the health check's), and requests arriving
	 * before that would wait for connections being opened, not for the pool's size.
	 */
	private static Run run(LabServiceContainer caller) {
		ServiceGauges gauges = ServiceGauges.on(caller)
			.gauges(Gauge.HIKARI_ACTIVE, Gauge.HIKARI_PENDING, Gauge.HIKARI_MAX, Gauge.HIKARI_USES,
					Gauge.HIKARI_USAGE_SECONDS);
		await("Hikari's pool of " + caller.uri("") + " filled").atMost(Duration.ofSeconds(30))
			.until(() -> gauges.read(Gauge.HIKARI_IDLE).orElse(0) >= gauges.read(Gauge.HIKARI_MAX).orElse(1));
		gauges.start();
		LoadResult result = LOAD.named("db route").run(caller.uri(ROUTE));
		return new Run(result, gauges.stop());
	}

	private record Run(LoadResult result, GaugeTimeline hikari) {

		/** How long one use held a connection during the run: W at the pool. */
		Duration held() {
			return this.hikari.meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES)
				.orElseThrow(() -> new AssertionError("Hikari's usage timer counted nothing: " + this.hikari));
		}

		Map<String, Object> evidence() {
			Map<String, Object> evidence = ScenarioReport.evidence("W at the pool (Hikari usage)",
					held().toMillis() + " ms");
			for (Gauge gauge : List.of(Gauge.HIKARI_ACTIVE, Gauge.HIKARI_PENDING, Gauge.HIKARI_MAX)) {
				this.hikari.max(gauge).ifPresent((max) -> evidence.put(gauge.label() + " max", Math.round(max)));
			}
			if (this.result.errorCount() > 0) {
				evidence.put("time to fail p50", this.result.failureLatencyAt(50).toMillis() + " ms");
			}
			return evidence;
		}

	}

	/** Attribution: a sweep of the small and the sized pool. */
	@Nested
	class Attribution {

		@Test
		void aSweepOfThePoolOfFourNamesHikari(ScenarioReport report) {
			SweepResult sweep = Sweep.of(smallPool, ROUTE).named("S4 pool of 4").upToUsers(16).run();

			report.record("sweep: Hikari pool of 4", sweep);
			assertThat(sweep).isCappedBy(Resource.HIKARI_POOL).hasCeilingNearItsModel(withPercentage(15));
		}

		@Test
		void aSweepOfThePoolSizedForTheLoadFindsNoCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(sizedPool, ROUTE).named("S4 pool of 12").upToUsers(8).run();

			report.record("sweep: Hikari pool of 12", sweep);
			assertThat(sweep).isNotCappedBy(Resource.HIKARI_POOL).hasNoCap();
		}

	}

}
