package dev.bottleneckkit.scenarios;

import java.time.Duration;
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
import dev.bottleneckkit.scenarios.lab.InFlightProbe.InFlight;
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

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * S2 (seeds 001–003): a service whose route blocks for 300 ms (a slow dependency, a
 * query). On Tomcat's platform threads, each request holds a thread for the whole 300 ms,
 * so N threads cap throughput at N / 0.3 s and the other users queue for a thread. On
 * virtual threads the blocked request gives its carrier back, the thread pool is no
 * longer the cap, and throughput follows users / 0.3 s (seed 003 measured 130.93 rps for
 * 40 users against a ceiling of 133). W is what the service measured itself: the mean
 * time a request held its thread during the run. The 300 ms and 40 users are seed 003's,
 * whose 130.93 rps this scenario reproduces, so it keeps that clock.
 */
@Scenario(id = "S2", title = "Platform thread pool queueing vs virtual threads on a blocking route")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlatformThreadPoolQueueingIT {

	/** How long the route blocks: seed 003's 300 ms. */
	static final Duration BLOCKING_LATENCY = Duration.ofMillis(300);

	/**
	 * Tomcat's platform request threads, scaled down from 200 so 2 cores can outnumber
	 * them.
	 */
	static final int TOMCAT_THREADS = 10;

	/** Users in the closed loop: seed 003's 40, four times the threads. */
	static final int USERS = 40;

	/** 8 s: 267 answers at the platform cap, 1067 on virtual threads. */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(8));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer platform = LabServiceContainer.downstream(network)
		.withDefaultLatency(BLOCKING_LATENCY)
		.withTomcatMaxThreads(TOMCAT_THREADS)
		.withName("platform-threads");

	@Container
	static final LabServiceContainer virtual = LabServiceContainer.downstream(network)
		.withDefaultLatency(BLOCKING_LATENCY)
		.withTomcatMaxThreads(TOMCAT_THREADS)
		.withVirtualThreads(true)
		.withName("virtual-threads");

	@Test
	@Order(1)
	void platformThreadsCapThroughputAtThreadsOverLatency(ScenarioReport report) {
		platform.inFlight().reset();
		ServiceGauges gauges = ServiceGauges.on(platform).gauges(Gauge.TOMCAT_BUSY, Gauge.TOMCAT_MAX).start();

		LoadResult result = LOAD.named("platform threads").run(platform.uri("/work/sleep"));

		GaugeTimeline tomcat = gauges.stop();
		InFlight served = platform.inFlight().read();
		Ceiling threads = Ceiling.of(TOMCAT_THREADS, "Tomcat platform threads", served.meanServiceTime());
		report.record("platform threads (Tomcat max " + TOMCAT_THREADS + ")", result, threads, evidence(served, tomcat),
				Map.of("service", tomcat));
		assertThat(served.peak()).as("never more requests served at once than Tomcat has threads")
			.isEqualTo(TOMCAT_THREADS);
		assertThat(tomcat.max(Gauge.TOMCAT_BUSY)).as("every platform thread busy: the pool is the cap")
			.hasValue(TOMCAT_THREADS);
		assertThat(result).as("platform threads: throughput is threads / latency")
			.hasNoErrors()
			.hasThroughputNear(threads, withPercentage(15));
		assertThat(result).as("platform threads: users queue for a thread, W = L / λ")
			.hasMeanLatencyAtLeast(2, BLOCKING_LATENCY)
			.hasMeanLatencyNear(threads.latencyFor(USERS), withPercentage(25));
	}

	@Test
	@Order(2)
	void virtualThreadsLetEveryUserBlockAtOnce(ScenarioReport report) {
		virtual.inFlight().reset();

		LoadResult result = LOAD.named("virtual threads").run(virtual.uri("/work/sleep"));

		InFlight served = virtual.inFlight().read();
		Ceiling users = Ceiling.of(USERS, "users (virtual threads: no thread cap)", served.meanServiceTime());
		report.record("virtual threads (same Tomcat max " + TOMCAT_THREADS + ", now unused)", result, users,
				ScenarioReport.evidence("W at the service", served.meanServiceTime().toMillis() + " ms",
						"peak requests served at once", served.peak()));
		assertThat(served.peak()).as("server.tomcat.threads.max no longer applies: all users are served at once")
			.isEqualTo(USERS);
		assertThat(result).as("virtual threads: throughput is users / latency")
			.hasNoErrors()
			.hasThroughputNear(users, withPercentage(15));
		assertThat(result).as("virtual threads: nobody queues")
			.hasMeanLatencyNear(served.meanServiceTime(), withPercentage(25));
	}

	private static Map<String, Object> evidence(InFlight served, GaugeTimeline tomcat) {
		Map<String, Object> evidence = ScenarioReport.evidence("W at the service",
				served.meanServiceTime().toMillis() + " ms", "peak requests served at once", served.peak());
		evidence.putAll(tomcat.maxima());
		return evidence;
	}

	/**
	 * Attribution: a sweep of each service, knowing nothing of its threads, names what
	 * caps it.
	 */
	@Nested
	class Attribution {

		@Test
		void aSweepOfThePlatformThreadServiceNamesTomcatsThreads(ScenarioReport report) {
			SweepResult sweep = Sweep.of(platform, "/work/sleep").named("S2 platform threads").upToUsers(32).run();

			report.record("sweep: platform threads", sweep);
			assertThat(sweep).isCappedBy(Resource.TOMCAT_THREADS).hasCeilingNearItsModel(withPercentage(15));
		}

		@Test
		void aSweepOfTheVirtualThreadServiceFindsNoThreadCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(virtual, "/work/sleep").named("S2 virtual threads").upToUsers(32).run();

			report.record("sweep: virtual threads", sweep);
			assertThat(sweep).isNotCappedBy(Resource.TOMCAT_THREADS).hasNoCap();
		}

	}

}
