package dev.bottleneckkit.sweep;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The verdicts a sweep gives, rule by rule, on readings made by hand: each names its
 * resource with the numbers that prove it, in the words pinned here, and nothing is named
 * that no probe saw.
 */
class AttributionTest {

	private static final Duration W1 = Duration.ofMillis(500);

	@Test
	void aPoolAtItsLimitWithWaitersIsTheCap() {
		GaugeTimeline gauges = gauges(Map.of(Gauge.HTTP_POOL_LEASED, 5.0, Gauge.HTTP_POOL_MAX_PER_ROUTE, 5.0,
				Gauge.HTTP_POOL_PENDING, 27.0, Gauge.TOMCAT_BUSY, 32.0, Gauge.TOMCAT_MAX, 200.0));

		SweepResult sweep = capped(10.0, gauges, null, List.of(), Double.NaN);

		assertThat(sweep).isCappedBy(Resource.HTTP_CLIENT_POOL).hasCeilingNearItsModel(0.05);
		assertThat(sweep.verdict().line()).isEqualTo(
				"capped at 10.0 rps from 8 users: HttpClient pool 5/5 leased (per route), 27 pending — 5 connections /"
						+ " 0.500 s = 10.0 rps");
	}

	@Test
	void hikariIsJudgedByHowLongAUseHeldItsConnection() {
		GaugeTimeline gauges = new GaugeTimeline(
				new LinkedHashMap<>(Map.of(Gauge.HIKARI_ACTIVE.label(), samples(4, 4), Gauge.HIKARI_MAX.label(),
						samples(4, 4), Gauge.HIKARI_PENDING.label(), samples(0, 12), Gauge.HIKARI_USES.label(),
						samples(100, 140), Gauge.HIKARI_USAGE_SECONDS.label(), samples(100.0, 140.2))));

		SweepResult sweep = capped(4.0, gauges, null, List.of(), Double.NaN);

		assertThat(sweep.verdict().line()).isEqualTo(
				"capped at 4.0 rps from 8 users: Hikari pool 4/4 active, 12 pending — 4 connections / 1.005 s = 4.0 rps");
	}

	@Test
	void busyTomcatThreadsAreTheCapButNotWhenTheyRunVirtualThreads() {
		SweepResult platform = capped(20.0, gauges(Map.of(Gauge.TOMCAT_BUSY, 10.0, Gauge.TOMCAT_MAX, 10.0)), null,
				List.of(), Double.NaN);
		SweepResult virtual = capped(20.0, gauges(Map.of(Gauge.TOMCAT_BUSY, -1.0, Gauge.TOMCAT_MAX, 10.0)), null,
				List.of(), Double.NaN);

		assertThat(platform).isCappedBy(Resource.TOMCAT_THREADS);
		assertThat(virtual).as("Tomcat reports -1 busy threads on virtual threads").isCappedBy(Resource.UNEXPLAINED);
	}

	@Test
	void pinnedCarriersNameTheirCulprit() {
		List<PinnedEvent> pinned = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			pinned.add(new PinnedEvent(Instant.now(), Duration.ofMillis(1002), "",
					List.of("java.net.SocketInputStream.read", "com.mysql.cj.protocol.ReadAheadInputStream.fill:107",
							"com.mysql.cj.NativeSession.execSQL")));
		}

		SweepResult sweep = capped(2.0, gauges(Map.of()), null, pinned, Double.NaN);

		assertThat(sweep).isCappedBy(Resource.CARRIER_THREADS).hasCeilingNearItsModel(0.05);
		assertThat(sweep.verdict().line())
			.isEqualTo("capped at 2.0 rps from 8 users: 20 pinned events of 1002 ms, 2.0 carriers held at once, culprit"
					+ " com.mysql.cj.protocol.ReadAheadInputStream.fill:107 — 2 carriers / 1.002 s = 2.0 rps");
	}

	/**
	 * A stock Spring Boot service publishes no HttpClient 5 pool meters: the pool is read
	 * from thread dumps, the waiting threads parked in its lease, the holders in
	 * {@code MainClientExec}. A dump is one instant: the limit is the most holders seen
	 * beside waiters (4 in one dump, 5 in the other).
	 */
	@Test
	void anHttpClientPoolWithoutMetersIsReadFromThreadDumps() {
		ThreadDump four = poolDump("threads-3.json", 4, 3, Attribution.HTTP_CLIENT_WAITING,
				"org.apache.hc.client5.http.impl.classic.MainClientExec.execute");
		ThreadDump five = poolDump("threads-4.json", 5, 11, Attribution.HTTP_CLIENT_WAITING,
				"org.apache.hc.client5.http.impl.classic.MainClientExec.execute");
		List<Step> steps = List.of(step(1, 2.0, 500, gauges(Map.of()), null, List.of(), Double.NaN),
				step(2, 4.0, 500, gauges(Map.of()), null, List.of(), Double.NaN),
				step(4, 7.9, 505, gauges(Map.of()), null, List.of(), Double.NaN),
				step(8, 9.9, 800, gauges(Map.of()), four, List.of(), Double.NaN),
				step(16, 10.0, 1600, gauges(Map.of()), five, List.of(), Double.NaN));

		SweepResult sweep = result(steps, true);

		assertThat(sweep).isCappedBy(Resource.HTTP_CLIENT_POOL).hasCeilingNearItsModel(0.05);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 10.0 rps from 8 users: HttpClient pool (from a thread"
				+ " dump) 5 request threads hold a connection, 11 wait in its lease — 5 connections / 0.500 s = 10.0 rps");
	}

	@Test
	void aHikariPoolWithoutMetersIsReadFromThreadDumps() {
		ThreadDump dump = poolDump("threads-2.json", 4, 4, Attribution.HIKARI_WAITING,
				"com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeQuery");

		SweepResult sweep = capped(8.0, gauges(Map.of()), dump, List.of(), Double.NaN);

		assertThat(sweep).isCappedBy(Resource.HIKARI_POOL);
		assertThat(sweep.verdict().line()).startsWith("capped at 8.0 rps from 8 users: Hikari pool (from a thread dump)"
				+ " 4 request threads hold a connection, 4 wait in its borrow — 4 connections / ");
	}

	@Test
	void requestThreadsCrowdingOneLockNameIt() {
		List<ThreadDump.DumpedThread> threads = new ArrayList<>();
		for (int i = 0; i < 14; i++) {
			threads.add(new ThreadDump.DumpedThread("",
					List.of("jdk.internal.misc.Unsafe.park",
							"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire",
							"java.util.concurrent.locks.ReentrantLock.lock",
							"ch.qos.logback.core.OutputStreamAppender.writeBytes",
							"org.apache.catalina.core.ApplicationFilterChain.doFilter")));
		}
		for (int i = 0; i < 6; i++) {
			threads.add(new ThreadDump.DumpedThread("", List.of("java.lang.Thread.sleep", "dev.example.Work.sleep",
					"org.apache.catalina.core.ApplicationFilterChain.doFilter")));
		}
		ThreadDump dump = new ThreadDump(Path.of("threads-1.json"), threads);

		SweepResult sweep = capped(48.5, gauges(Map.of()), dump, List.of(), Double.NaN);

		assertThat(sweep).isCappedBy(Resource.LOCK);
		assertThat(sweep.verdict().line())
			.isEqualTo("capped at 48.5 rps from 8 users: 14 of 20 request threads parked on a lock taken in"
					+ " ch.qos.logback.core.OutputStreamAppender.writeBytes");
	}

	@Test
	void aContainerUsingItsWholeCpuLimitIsTheCap() {
		List<Step> steps = List.of(cpuStep(1, 8.0, 0.56), cpuStep(2, 12.5, 0.9), cpuStep(4, 14.0, 0.98),
				cpuStep(8, 13.9, 0.98));

		SweepResult sweep = result(steps, true);

		assertThat(sweep).isCappedBy(Resource.CPU).hasCeilingNearItsModel(0.05);
		assertThat(sweep.verdict().line())
			.startsWith("capped at 14.0 rps from 4 users: the service used 0.98 of its 1 CPU with 4 users — 1 / 70 ms");
	}

	/**
	 * A pool full at moments is not the cap when its Little's law allows far more than
	 * was measured: a stock app with virtual threads and a slow database read "Hikari"
	 * while 10 connections / 73 ms of usage = 137 rps stood against a ceiling of 58.5
	 * rps. The verdict lists the candidate with its figures instead.
	 */
	@Test
	void aResourceWhoseModelDoesNotExplainTheCeilingIsOnlyACandidate() {
		GaugeTimeline hikari = gauges(
				Map.of(Gauge.HIKARI_ACTIVE, 10.0, Gauge.HIKARI_MAX, 10.0, Gauge.HIKARI_PENDING, 3.0));

		SweepResult sweep = capped(8.0, hikari, null, List.of(), Double.NaN);

		assertThat(sweep).isCappedBy(Resource.UNEXPLAINED);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 8.0 rps from 8 users, and no resource's Little's law"
				+ " explains it within 25 %: Hikari pool 10/10 active, 3 pending — 10 connections / 0.500 s = 20.0 rps"
				+ " (2.50× the ceiling)");
		assertThat(sweep.verdict().evidence()).containsEntry("candidate Hikari connection pool",
				"model 20.0 rps, 2.50× the ceiling");
	}

	/**
	 * A fresh run of S9 failed with "the ceiling is 20 % from its model": the ceiling
	 * came from the 4-user step (14.3 rps at 1.02 cores, 71 ms of CPU a request) and the
	 * CPU per request from the knee's 2-user step (84 ms).
	 */
	@Test
	void theCpuModelReadsCpuPerRequestAtTheStepThatMeasuredTheCeiling() {
		List<Step> steps = List.of(cpuStep(1, 11.0, 1.00), cpuStep(2, 13.0, 1.01), cpuStep(4, 14.3, 1.02),
				cpuStep(8, 14.1, 1.02));

		SweepResult sweep = result(steps, true);

		assertThat(sweep).isCappedBy(Resource.CPU).hasCeilingNearItsModel(0.05);
		assertThat(sweep.verdict().line())
			.isEqualTo("capped at 14.3 rps from 2 users: the service used 1.02 of its 1 CPU"
					+ " with 4 users — 1 / 72 ms of CPU per request = 13.7 rps");
	}

	@Test
	void whatNoProbeExplainsIsSaidSoWithWhatWasSeen() {
		SweepResult sweep = capped(10.0, gauges(Map.of(Gauge.TOMCAT_BUSY, 12.0, Gauge.TOMCAT_MAX, 200.0)), null,
				List.of(), 0.2);

		assertThat(sweep).isCappedBy(Resource.UNEXPLAINED);
		assertThat(sweep.verdict().line()).startsWith(
				"capped at 10.0 rps from 8 users, and no probe explains it: no pool, thread pool, carrier, lock or CPU"
						+ " was at its limit in the last step (")
			.contains("tomcat.threads.busy max 12", "tomcat.threads.config.max max 200", "cores used 0.20 of 1.00");
	}

	@Test
	void throughputStillRisingIsNoCap() {
		List<Step> steps = List.of(step(1, 2.0, 500, gauges(Map.of()), null, List.of(), Double.NaN),
				step(2, 4.0, 500, gauges(Map.of()), null, List.of(), Double.NaN),
				step(4, 7.9, 505, gauges(Map.of()), null, List.of(), Double.NaN));
		SweepResult sweep = result(steps, false);

		assertThat(sweep).isCappedBy(Resource.NONE).hasNoCap().hasNoCapBelow(7.5);
		assertThat(sweep.verdict().line())
			.isEqualTo("no cap up to 4 users: 7.9 rps, still rising with every doubling (W₁ 500 ms)");
	}

	@Test
	void aSaturatedGeneratorIsNamedBeforeAnyResourceOfTheService() {
		List<Step> steps = List.of(step(1, 2.0, 500, gauges(Map.of()), null, List.of(), Double.NaN),
				new Step(2, LoadResults.closedLoop("load", 2, Duration.ofSeconds(4), 16, W1, 0.96), gauges(Map.of()),
						gauges(Map.of()), Double.NaN, 1, Double.NaN, Double.NaN, List.of(), null,
						Duration.ofSeconds(5)));

		SweepResult sweep = result(steps, true);

		assertThat(sweep).isCappedBy(Resource.LOAD_GENERATOR);
	}

	@Test
	void failureMessagesPrintTheVerdictAndEveryStep() {
		SweepResult sweep = capped(20.0, gauges(Map.of(Gauge.TOMCAT_BUSY, 10.0, Gauge.TOMCAT_MAX, 10.0)), null,
				List.of(), Double.NaN);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(sweep).isCappedBy(Resource.HIKARI_POOL))
			.withMessageStartingWith(
					"expected the cap to be Hikari connection pool, but the sweep says: capped at 20.0 rps"
							+ " from 8 users: Tomcat threads 10/10 busy")
			.withMessageContaining("users        rps")
			.withMessageContaining("<- knee");
	}

	@Test
	void aDoublingIsFlatWhenThroughputStaysAndLatencyGrows() {
		Step four = step(4, 8.0, 500, gauges(Map.of()), null, List.of(), Double.NaN);

		assertThat(Sweep.flat(four, step(8, 10.0, 800, gauges(Map.of()), null, List.of(), Double.NaN)))
			.as("8 → 10 rps: +25 %")
			.isFalse();
		assertThat(Sweep.flat(four, step(8, 8.5, 950, gauges(Map.of()), null, List.of(), Double.NaN)))
			.as("+6 %, latency ×1.9")
			.isTrue();
	}

	@Test
	void aDoublingIsFlatWhenThroughputFallsThoughTheAnswersThatComeBackAreQuick() {
		Step sixteen = step(16, 35.8, 461, gauges(Map.of()), null, List.of(), Double.NaN);

		assertThat(Sweep.flat(sixteen, step(32, 28.9, 519, gauges(Map.of()), null, List.of(), Double.NaN)))
			.as("S2 under a CPU hog: 35.8 → 28.9 rps, mean 461 → 519 ms, users / throughput 0.45 → 1.11 s")
			.isTrue();
	}

	@Test
	void aDoublingIsFlatWhenTheExtraUsersAreTurnedAway() {
		Step eight = step(8, 5.0, 1000, gauges(Map.of()), null, List.of(), Double.NaN);
		LoadResult rejecting = LoadResults.closedLoop("load", 16, Duration.ofSeconds(10), 50, Duration.ofMillis(1100),
				Map.of("http-503 pool-pending-limit", 60L), Duration.ofMillis(2));
		Step sixteen = new Step(16, rejecting, gauges(Map.of()), gauges(Map.of()), Double.NaN, 1, Double.NaN,
				Double.NaN, List.of(), null, Duration.ofSeconds(10));

		assertThat(Sweep.flat(eight, sixteen)).as("5.0 → 5.0 rps, latency ×1.1, 60 of 110 answers 503").isTrue();
	}

	/**
	 * A sweep of 1, 2, 4 and 8 users whose knee is at 8, at {@code ceiling}, its last
	 * step read as given.
	 */
	private static SweepResult capped(double ceiling, GaugeTimeline last, ThreadDump dump, List<PinnedEvent> pinned,
			double cores) {
		List<Step> steps = List.of(step(1, ceiling / 8, W1.toMillis(), gauges(Map.of()), null, List.of(), Double.NaN),
				step(2, ceiling / 4, W1.toMillis(), gauges(Map.of()), null, List.of(), Double.NaN),
				step(4, ceiling * 0.8, 800, gauges(Map.of()), null, List.of(), Double.NaN),
				step(8, ceiling, 1600, last, dump, pinned, cores));
		return result(steps, true);
	}

	private static SweepResult result(List<Step> steps, boolean saturated) {
		SweepResult partial = new SweepResult("test", URI.create("http://localhost/"), steps, saturated, null,
				Duration.ZERO);
		return new SweepResult("test", URI.create("http://localhost/"), steps, saturated, Attribution.of(partial),
				Duration.ofSeconds(30));
	}

	private static Step step(int users, double rps, long latencyMs, GaugeTimeline gauges, ThreadDump dump,
			List<PinnedEvent> pinned, double cores) {
		Duration window = Duration.ofSeconds(10);
		LoadResult result = LoadResults.closedLoop("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(latencyMs));
		return new Step(users, result, gauges, gauges(Map.of()), cores, 1, Double.NaN, Double.NaN, pinned, dump,
				window);
	}

	/**
	 * A step of 10 s at {@code rps}, every request of it in the timeline, its container
	 * at {@code cores} of 1 CPU.
	 */
	private static Step cpuStep(int users, double rps, double cores) {
		Duration window = Duration.ofSeconds(10);
		List<LoadResult.Second> timeline = new ArrayList<>();
		for (int second = 0; second < 10; second++) {
			timeline.add(new LoadResult.Second(second, Math.round(rps), 0, users * 1000 / rps, true));
		}
		LoadResult result = LoadResults.of("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(Math.round(users * 1000 / rps)), timeline, Duration.ZERO, Double.NaN);
		return new Step(users, result, gauges(Map.of()), gauges(Map.of()), cores, 1, Double.NaN, Double.NaN, List.of(),
				null, window);
	}

	/**
	 * A dump of request threads: {@code holding} inside {@code holdingFrame},
	 * {@code waiting} in the pool's wait.
	 */
	private static ThreadDump poolDump(String file, int holding, int waiting, List<String> waitingFrames,
			String holdingFrame) {
		List<ThreadDump.DumpedThread> threads = new ArrayList<>();
		for (int i = 0; i < holding; i++) {
			threads.add(new ThreadDump.DumpedThread("", List.of("sun.nio.ch.SocketDispatcher.read", holdingFrame,
					"dev.example.Orders.get", "org.apache.catalina.core.ApplicationFilterChain.doFilter")));
		}
		for (int i = 0; i < waiting; i++) {
			List<String> frames = new ArrayList<>(List.of("jdk.internal.misc.Unsafe.park"));
			frames.addAll(waitingFrames);
			frames
				.addAll(List.of("dev.example.Orders.get", "org.apache.catalina.core.ApplicationFilterChain.doFilter"));
			threads.add(new ThreadDump.DumpedThread("", frames));
		}
		return new ThreadDump(Path.of(file), threads);
	}

	private static GaugeTimeline gauges(Map<Gauge, Double> maxima) {
		Map<String, List<GaugeTimeline.Sample>> series = new LinkedHashMap<>();
		maxima.forEach((gauge, max) -> series.put(gauge.label(), samples(Math.min(0, max), max)));
		return new GaugeTimeline(series);
	}

	private static List<GaugeTimeline.Sample> samples(double first, double last) {
		return List.of(new GaugeTimeline.Sample(Duration.ZERO, first),
				new GaugeTimeline.Sample(Duration.ofSeconds(5), last));
	}

}
