package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.OpenLoopLoad;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
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
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.awaitility.Awaitility.await;

/**
 * S5 (seed 000; seed 001's "the default bulkhead is lost"): a downstream still on a small
 * pool of platform threads, offered more than it can serve. A caller on platform threads
 * can only have as many calls in flight as it has threads, so it holds the excess back.
 * The same caller moved to virtual threads, with a large outbound pool, passes every
 * arrival through: the downstream's queue grows past the caller's read timeout, calls
 * fail with read timeouts while the downstream keeps working on requests nobody waits
 * for. Two fixes: the downstream on virtual threads (its work only waits), or a bulkhead
 * in the caller sized to what the downstream serves, which rejects the excess at once
 * with 429.
 */
@Scenario(id = "S5", title = "A virtual-thread caller floods a platform-thread downstream")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtualThreadCallerFloodsDownstreamIT {

	/**
	 * The downstream's work: it blocks for this long. 250 ms, not the seed's seconds: the
	 * mechanism needs only a queue that outgrows the read timeout, and at 250 ms it does
	 * within a second of the window while each test's load turn is half what 500 ms took
	 * (the same 16 holds per window, at the same offered rate).
	 */
	static final Duration DOWNSTREAM_LATENCY = Duration.ofMillis(250);

	/** The downstream's platform threads: with 250 ms each, it serves 20 rps. */
	static final int DOWNSTREAM_THREADS = 5;

	/** The platform-thread caller's Tomcat threads: its natural bulkhead. */
	static final int CALLER_THREADS = 10;

	/** Twice what the downstream serves. */
	static final double OFFERED_RPS = 40;

	/** The caller's read timeout: four times the downstream's latency. */
	static final Duration READ_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * The caller's outbound pool: large, so the pool is not what limits a virtual-thread
	 * caller.
	 */
	static final int LARGE_POOL = 500;

	/**
	 * Warmed up for 2 s, eight holds: the first calls through a path not yet taken (fix
	 * (a)'s downstream) wait up to twice the hold, and after a 1 s warm-up they were
	 * answered inside the window, which then read 1.044 of the offered rate (ci13).
	 */
	static final OpenLoopLoad LOAD = OpenLoopLoad.ratePerSecond(OFFERED_RPS)
		.maxOutstanding(400)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(4))
		.requestTimeout(Duration.ofSeconds(20));

	static final Network network = KitContainers.newNetwork();

	/**
	 * The downstream still on a small pool of platform threads: tests 1, 2 and 4 call it.
	 */
	@Container
	static final LabServiceContainer platformDownstream = LabServiceContainer.downstream(network, "platform-downstream")
		.withDefaultLatency(DOWNSTREAM_LATENCY)
		.withTomcatMaxThreads(DOWNSTREAM_THREADS);

	/** Fix (a): the same downstream on virtual threads. */
	@Container
	static final LabServiceContainer virtualDownstream = LabServiceContainer.downstream(network, "virtual-downstream")
		.withDefaultLatency(DOWNSTREAM_LATENCY)
		.withTomcatMaxThreads(DOWNSTREAM_THREADS)
		.withVirtualThreads(true);

	@Container
	static final LabServiceContainer platformCaller = caller().withTomcatMaxThreads(CALLER_THREADS)
		.withName("platform-caller");

	/**
	 * On virtual threads, without a bulkhead; {@code ?via=virtual} calls fix (a)'s
	 * downstream through the same pool.
	 */
	@Container
	static final LabServiceContainer virtualCaller = caller().withVirtualThreads(true)
		.withNamedDownstream("virtual", virtualDownstream.url())
		.withName("virtual-caller");

	/**
	 * Fix (b): the virtual caller with a bulkhead sized to what the downstream serves.
	 */
	@Container
	static final LabServiceContainer bulkheadCaller = caller().withVirtualThreads(true)
		.withBulkhead(DOWNSTREAM_THREADS)
		.withName("bulkhead-caller");

	/**
	 * Each test starts on a downstream that has drained what the last one left it (a
	 * flood's queue).
	 */
	@BeforeEach
	void startOnIdleDownstreams() {
		for (LabServiceContainer downstream : List.of(platformDownstream, virtualDownstream)) {
			await(downstream.name() + " drained").atMost(Duration.ofSeconds(30))
				.until(() -> downstream.inFlight().read().current() == 0);
			downstream.inFlight().reset();
		}
	}

	@Test
	@Order(1)
	void platformThreadCallerHoldsTheExcessBack(ScenarioReport report) {
		Run run = run(platformDownstream, platformCaller, "/call/sleep");

		Ceiling downstreamThreads = run.downstreamThreads();
		report.record("platform-thread caller (" + CALLER_THREADS + " threads)", run.result, downstreamThreads,
				run.evidence(), run.gauges());
		assertThat(run.callerLeased()).as("the caller has no more calls in flight than it has threads")
			.isLessThanOrEqualTo(CALLER_THREADS);
		assertThat(run.result.errors()).as("the downstream's queue stays short of the read timeout")
			.doesNotContainKey("http-504 read-timeout");
		assertThat(run.result).as("the downstream serves at its ceiling")
			.hasThroughputNear(downstreamThreads, withPercentage(15));
	}

	@Test
	@Order(2)
	void virtualThreadCallerFloodsTheDownstreamIntoReadTimeouts(ScenarioReport report) {
		Run run = run(platformDownstream, virtualCaller, "/call/sleep");

		Ceiling downstreamThreads = run.downstreamThreads();
		report.record("virtual-thread caller, no bulkhead", run.result,
				FailureMode.of("http-504 read-timeout", READ_TIMEOUT,
						"nothing holds the virtual-thread caller back: the arrivals queue past the downstream's "
								+ DOWNSTREAM_THREADS + " threads until the caller's " + READ_TIMEOUT.toMillis()
								+ " ms read timeout, and the work done" + " for callers that gave up is lost"),
				run.evidence(), run.gauges());
		assertThat(run.callerLeased())
			.as("nothing holds the caller back: calls in flight pile up until the read timeout ends them, "
					+ "L = λ × W = %.0f rps × %d ms", OFFERED_RPS, READ_TIMEOUT.toMillis())
			.isCloseTo(OFFERED_RPS * READ_TIMEOUT.toMillis() / 1000.0, withinPercentage(20));
		assertThat(run.downstreamConnections())
			.as("and every one of them waits at the downstream, far past its threads")
			.isGreaterThanOrEqualTo(3 * DOWNSTREAM_THREADS);
		assertThat(run.result.errors()).as("calls queue past the read timeout, and only that fails")
			.containsOnlyKeys("http-504 read-timeout");
		assertThat(run.result.throughput()).as("work done for callers that gave up is lost: goodput below the ceiling")
			.isLessThan(0.85 * downstreamThreads.requestsPerSecond());
	}

	@Test
	@Order(3)
	void fixDownstreamOnVirtualThreadsServesEveryArrival(ScenarioReport report) {
		Ceiling unbounded = Ceiling.of(1000, "virtual threads (no thread cap)", DOWNSTREAM_LATENCY);

		Run run = run(virtualDownstream, virtualCaller, "/call/sleep?via=virtual");

		report.record("fix (a): downstream on virtual threads", run.result, unbounded, run.evidence(), run.gauges());
		// Held to the downstream's own hold as this run measured it: the caller adds its
		// hop, a core away on a busy machine, and a queue would add seconds.
		assertThat(run.result).as("the downstream's waiting no longer holds a thread: every arrival is served")
			.hasNoErrors()
			.hasThroughputNear(unbounded, withPercentage(15))
			.hasMedianLatencyNear(run.downstreamPeak.meanServiceTime(), withPercentage(25));
	}

	@Test
	@Order(4)
	void fixBulkheadInTheCallerRejectsTheExcessAtOnce(ScenarioReport report) {
		Run run = run(platformDownstream, bulkheadCaller, "/call/sleep");

		// A freed permit waits for the next arrival: the bulkhead rejects the excess
		// rather than queueing it, and the open loop sends every 25 ms, so a permit is
		// taken again at the first arrival after its call ends: its cycle is the call's
		// latency rounded up to the arrivals' grid (10 / W alone read 0.946 of the
		// answers, 10 / (W + half a gap) 0.946 to 0.970 as the tail moved from run to
		// run).
		Duration arrivalGap = Duration.ofNanos((long) (1e9 / OFFERED_RPS));
		Ceiling bulkhead = Ceiling.of(DOWNSTREAM_THREADS,
				"bulkhead permits, each taken again at the first arrival (every " + arrivalGap.toMillis()
						+ " ms) after its call",
				run.result.meanLatencyRoundedUpTo(arrivalGap));
		report.record("fix (b): bulkhead of " + DOWNSTREAM_THREADS + " in the caller", run.result, bulkhead,
				run.evidence(), run.gauges());
		assertThat(run.downstreamPeak.peak()).as("the downstream never serves more than the bulkhead admits")
			.isLessThanOrEqualTo(DOWNSTREAM_THREADS);
		assertThat(run.result.errors()).as("the excess is rejected with 429 bulkhead-full, nothing times out")
			.containsOnlyKeys("http-429 bulkhead-full");
		assertThat(run.result).as("admitted calls pass at the downstream's own latency, as this run measured it")
			.hasThroughputNear(bulkhead, withPercentage(15))
			.hasMedianLatencyNear(run.downstreamPeak.meanServiceTime(), withPercentage(25));
	}

	private static LabServiceContainer caller() {
		return LabServiceContainer.callerOf(platformDownstream)
			.withMaxConnectionsPerRoute(LARGE_POOL)
			.withMaxConnectionsTotal(LARGE_POOL)
			.withReadTimeout(READ_TIMEOUT);
	}

	private static Run run(LabServiceContainer downstream, LabServiceContainer caller, String route) {
		ServiceGauges downstreamGauges = ServiceGauges.on(downstream)
			.gauges(Gauge.TOMCAT_CONNECTIONS, Gauge.TOMCAT_BUSY)
			.start();
		ServiceGauges callerGauges = ServiceGauges.on(caller).gauges(Gauge.HTTP_POOL_LEASED).start();
		LoadResult result = LOAD.named("open load on the caller").run(caller.uri(route));
		return new Run(result, downstreamGauges.stop(), callerGauges.stop(), downstream.inFlight().read());
	}

	/**
	 * One run's evidence. The downstream's connection count includes the probes' own few
	 * connections, so exact bounds are asserted on the caller's leased connections
	 * instead.
	 */
	private record Run(LoadResult result, GaugeTimeline downstream, GaugeTimeline caller, InFlight downstreamPeak) {

		double downstreamConnections() {
			return this.downstream.max(Gauge.TOMCAT_CONNECTIONS).orElseThrow();
		}

		/**
		 * The downstream's threads over the time a request held one there in this run (W
		 * at the downstream).
		 */
		Ceiling downstreamThreads() {
			return Ceiling.of(DOWNSTREAM_THREADS, "downstream platform threads", this.downstreamPeak.meanServiceTime());
		}

		double callerLeased() {
			return this.caller.max(Gauge.HTTP_POOL_LEASED).orElseThrow();
		}

		Map<String, GaugeTimeline> gauges() {
			return Map.of("caller", this.caller, "downstream", this.downstream);
		}

		Map<String, Object> evidence() {
			Map<String, Object> evidence = new LinkedHashMap<>();
			evidence.put("caller calls in flight (pool leased) max", Math.round(callerLeased()));
			evidence.put("downstream connections max", Math.round(downstreamConnections()));
			evidence.put("downstream peak served at once", this.downstreamPeak.peak());
			evidence.put("W at the downstream", this.downstreamPeak.meanServiceTime().toMillis() + " ms");
			// Tomcat reports -1 busy threads when requests run on virtual threads.
			this.downstream.max(Gauge.TOMCAT_BUSY)
				.ifPresent((busy) -> evidence.put("downstream busy threads max",
						(busy < 0) ? "n/a (virtual)" : Math.round(busy)));
			evidence.put("caller p99 (successes)", this.result.p99().toMillis() + " ms");
			return evidence;
		}

	}

	/** Attribution: a sweep of the virtual-thread caller, watching its downstream too. */
	@Nested
	class Attribution {

		@Test
		void aSweepOfTheVirtualThreadCallerNamesTheDownstreamsThreads(ScenarioReport report) {
			SweepResult sweep = Sweep.of(virtualCaller, "/call/sleep")
				.named("S5 virtual caller, platform downstream")
				.watchingDownstream(platformDownstream)
				.upToUsers(32)
				.run();

			report.record("sweep: virtual caller, platform downstream", sweep);
			assertThat(sweep).isCappedBy(Resource.DOWNSTREAM).hasCeilingNearItsModel(withPercentage(15));
		}

		@Test
		void aSweepWithTheDownstreamOnVirtualThreadsFindsNoCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(virtualCaller, "/call/sleep?via=virtual")
				.named("S5 virtual caller, virtual downstream")
				.watchingDownstream(virtualDownstream)
				.upToUsers(32)
				.run();

			report.record("sweep: virtual caller, virtual downstream", sweep);
			assertThat(sweep).isNotCappedBy(Resource.DOWNSTREAM).hasNoCap();
		}

	}

}
