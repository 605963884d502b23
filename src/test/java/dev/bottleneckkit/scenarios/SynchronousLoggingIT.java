package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer.RequestLogAppender;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.awaitility.Awaitility.await;

/**
 * S11 (seed 000's bonus, "synchronous logging becomes a serialization point"): a service
 * on virtual threads logs one line per request through Logback to a sink where every
 * write costs 20 ms. With Logback's default synchronous appender each request writes its
 * own line while holding the appender's lock, so however many requests arrive the service
 * completes one per write: 1 / 20 ms = 50 rps. Thread dumps taken during the load show
 * the request threads parked on that lock. An AsyncAppender in front of the same
 * appender, which then writes 8 KB at a time, removes the cap: the requests run at users
 * / work time, no request thread waits for the lock, and no line is dropped. Its clock is
 * already short (100 ms of work, 20 ms a write), and the 20 ms sink is what the 50 rps
 * cap is made of.
 */
@Scenario(id = "S11", title = "Synchronous logging to a slow sink serialises virtual threads")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SynchronousLoggingIT {

	/** The route's own work. */
	static final Duration WORK = Duration.ofMillis(100);

	/** What one write to the log sink costs. */
	static final Duration SINK_LATENCY = Duration.ofMillis(20);

	/**
	 * Users: they could make 20 / 0.1 s = 200 rps, four times what one sink write at a
	 * time allows.
	 */
	static final int USERS = 20;

	static final String APPENDER = "ch.qos.logback.core.OutputStreamAppender";

	/** Thread dumps per run, taken inside the measured window. */
	static final int DUMPS = 3;

	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(6));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer synchronous = serviceLoggingWith(RequestLogAppender.SYNC)
		.withName("sync-appender");

	@Container
	static final LabServiceContainer asynchronous = serviceLoggingWith(RequestLogAppender.ASYNC)
		.withName("async-appender");

	static final ThreadDumpProbe synchronousThreads = ThreadDumpProbe.on(synchronous);

	static final ThreadDumpProbe asynchronousThreads = ThreadDumpProbe.on(asynchronous);

	@AfterAll
	static void disconnectTheProbes() {
		synchronousThreads.close();
		asynchronousThreads.close();
	}

	@Test
	@Order(1)
	void aSynchronousAppenderCapsThroughputAtOneSinkWriteAtATime(ScenarioReport report) {
		Ceiling sink = Ceiling.of(1, "sink write at a time (the appender's lock)", SINK_LATENCY);

		Run run = loadWhileDumping(synchronous, synchronousThreads, "synchronous appender");

		JsonPath log = requestLog(synchronous);
		report.record("synchronous appender, sink 20 ms per write", run.result, sink, evidence(run, log));
		assertThat(run.result).as("one line written at a time caps the service at 1 / 20 ms")
			.hasNoErrors()
			.hasThroughputNear(sink, withPercentage(15));
		assertThat(run.medianWaiting())
			.as("most of the %d request threads are parked on the appender's lock (thread dumps: %s)", USERS,
					run.waiting())
			.isGreaterThanOrEqualTo(USERS / 2);
		assertThat(log.getLong("sinkWrites")).as("one sink write per line: the line is flushed while the lock is held")
			.isGreaterThanOrEqualTo(log.getLong("written"));
	}

	@Test
	@Order(2)
	void anAsynchronousAppenderRemovesTheCapWithoutDroppingLines(ScenarioReport report) {
		asynchronous.inFlight().reset();

		Run run = loadWhileDumping(asynchronous, asynchronousThreads, "asynchronous appender");

		Duration served = asynchronous.inFlight().read().meanServiceTime();
		Ceiling users = Ceiling.of(USERS, "users", served);
		JsonPath log = await().atMost(Duration.ofSeconds(10))
			.until(() -> requestLog(asynchronous), (reading) -> reading.getInt("queued") == 0);
		Map<String, Object> evidence = ScenarioReport.evidence("W at the service", served.toMillis() + " ms");
		evidence.putAll(evidence(run, log));
		report.record("AsyncAppender, sink 20 ms per write", run.result, users, evidence);
		assertThat(run.result).as("the request threads only queue their line: users / work time")
			.hasNoErrors()
			.hasThroughputNear(users, withPercentage(15));
		assertThat(run.waiting()).as("no request thread waits for the appender's lock").containsOnly(0);
		long notYetWritten = log.getLong("logged") - log.getLong("written");
		assertThat(notYetWritten)
			.as("nothing dropped: the lines not in the file yet are the ones in the 8 KB buffer (a line is > 50 bytes)")
			.isBetween(0L, 8192L / 50);
		assertThat(log.getLong("sinkWrites")).as("the worker writes many lines per sink write")
			.isLessThan(log.getLong("written") / 10);
	}

	private static LabServiceContainer serviceLoggingWith(RequestLogAppender appender) {
		return LabServiceContainer.downstream(network)
			.withVirtualThreads(true)
			.withDefaultLatency(WORK)
			.withRequestLog(appender, SINK_LATENCY);
	}

	/**
	 * Runs the load and, inside its measured window, takes {@link #DUMPS} thread dumps a
	 * second apart.
	 */
	private static Run loadWhileDumping(LabServiceContainer service, ThreadDumpProbe threads, String name) {
		try (var background = Executors.newVirtualThreadPerTaskExecutor()) {
			CompletableFuture<LoadResult> load = CompletableFuture
				.supplyAsync(() -> LOAD.named(name).run(service.uri("/work/sleep")), background);
			List<ThreadDump> dumps = new ArrayList<>();
			// The load may wait for its turn (scenarios side by side): the dumps begin
			// once its users are all in, past its 2 s warm-up.
			await(name + " under way").atMost(Duration.ofMinutes(5))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> service.inFlight().read().current() >= USERS - 2);
			sleep(Duration.ofSeconds(3));
			for (int i = 0; i < DUMPS; i++) {
				dumps.add(threads.take());
				sleep(Duration.ofSeconds(1));
			}
			return new Run(load.join(), dumps);
		}
	}

	private static Map<String, Object> evidence(Run run, JsonPath log) {
		return ScenarioReport.evidence("request threads waiting for the appender's lock",
				run.waiting() + " of " + USERS + " (" + DUMPS + " thread dumps)", "where request threads are",
				run.dumps.get(DUMPS / 2).whereAre(Run::servesARequest), "lines logged / written / sink writes",
				log.getLong("logged") + " / " + log.getLong("written") + " / " + log.getLong("sinkWrites"));
	}

	private static JsonPath requestLog(LabServiceContainer service) {
		return RestAssured.given()
			.baseUri(service.uri("/").toString())
			.get("/probe/request-log")
			.then()
			.statusCode(200)
			.extract()
			.jsonPath();
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private record Run(LoadResult result, List<ThreadDump> dumps) {

		static boolean servesARequest(ThreadDump.DumpedThread thread) {
			return thread.hasFrame("org.apache.catalina.core.ApplicationFilterChain");
		}

		/** Request threads parked on the appender's lock, per dump. */
		List<Integer> waiting() {
			return this.dumps.stream().map((dump) -> dump.waitingForLockIn(APPENDER).size()).toList();
		}

		int medianWaiting() {
			return waiting().stream().sorted(Comparator.naturalOrder()).toList().get(DUMPS / 2);
		}

	}

	/** Attribution: a sweep of each appender, taking a thread dump in every step. */
	@Nested
	class Attribution {

		@Test
		void aSweepOfTheSynchronousAppenderNamesItsLock(ScenarioReport report) {
			SweepResult sweep = Sweep.of(synchronous, "/work/sleep")
				.named("S11 synchronous appender")
				.upToUsers(32)
				.run();

			report.record("sweep: synchronous appender", sweep);
			assertThat(sweep).isCappedBy(Resource.LOCK).hasCeilingNearItsModel(withPercentage(25));
			assertThat(((Verdict.Capped) sweep.verdict()).where()).as("the lock is the appender's")
				.hasValueSatisfying((frame) -> assertThat(frame).startsWith(APPENDER));
		}

		@Test
		void aSweepOfTheAsynchronousAppenderFindsNoLock(ScenarioReport report) {
			SweepResult sweep = Sweep.of(asynchronous, "/work/sleep")
				.named("S11 asynchronous appender")
				.upToUsers(32)
				.run();

			report.record("sweep: asynchronous appender", sweep);
			assertThat(sweep).isNotCappedBy(Resource.LOCK).hasNoCap();
		}

	}

}
