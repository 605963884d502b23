package dev.bottleneckkit.sweep.internal.kinds;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.analysis.Analysis;
import dev.bottleneckkit.sweep.internal.analysis.Attribution;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;
import dev.bottleneckkit.sweep.internal.run.Readings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool full while the cores that serve it are: the verdict names the resource whose
 * knob moves the ceiling, and says what raising the other gains at most. The figures are
 * those of a server-rendered Boot 4.0 app with Hikari 10 and its database 20 ms away,
 * which capped at 69.0 rps with the machine's cores 1.92 of 2 busy, and made 52.6 rps
 * with Hikari 80.
 */
class RootsTest {

	private static final Step.Cpu QUIET = new Step.Cpu(0.5, 2, false, Optional.empty(), 0, Map.of("mysql", 0.1), 0.1, 2,
			0.72);

	private static final Step.Cpu FULL = new Step.Cpu(1.5, 2, false, Optional.empty(), 0, Map.of("mysql", 0.2), 0.2, 2,
			1.92);

	@Test
	void aPoolWhoseUsesWaitForACoreIsFullBecauseTheCpuIsAndTheCpuIsNamed() {
		Analysis analysis = Attribution.of(hikari(0.030, 0.145, FULL));

		Verdict.Capped verdict = (Verdict.Capped) analysis.verdict();
		assertThat(verdict.resource()).isEqualTo(Resource.CPU);
		assertThat(verdict.line()).startsWith("capped at 69.0 rps from 4 users: the machine's 2 cores were busy")
			.contains("; the Hikari connection pool is full because its uses wait for a core (its hold 0.030 s at"
					+ " 1 user, 0.145 s at the cap): raising it gains at most 4 %")
			.endsWith("cores / 0.028 s = 71.9 rps");
		assertThat(verdict.readings().get(CpuKind.ROOT))
			.startsWith("the CPU: the Hikari connection pool is full too" + " (Hikari pool 10/10 active, 5 pending)");
		assertThat(verdict.readings()).doesNotContainKey(Verdict.Capped.SHARED_CORES);
		// Raised cores, the pool allows what its uses hold at one user: 10 / 0.030 s.
		assertThat(analysis.nextCap()).hasValueSatisfying((next) -> {
			assertThat(next.resource()).isEqualTo(Resource.HIKARI_POOL);
			assertThat(next.model().rps()).isCloseTo(333.3, org.assertj.core.data.Offset.offset(0.1));
		});
	}

	@Test
	void coresANeighbourSharesAreFullWhereTheTestsProcessesFilledWhatItLeftAndTheirRootSaysItMayYield() {
		// A stock /ledger route (a query and a checksum in one transaction) on Hikari 8,
		// a busy loop on one of the machine's 2 cores. At 8 users the machine was 1.85
		// busy, but the test's processes used 0.79 of the 0.94 the loop left: not full.
		// At 16 they used 0.87 of 0.93, and a request's CPU there is the model's.
		Step.Cpu loop = new Step.Cpu(0.48, 2, false, Optional.empty(), 0, Map.of("mysql", 0.01), 0.03, 2, 1.55);
		Step.Cpu at8 = new Step.Cpu(0.73, 2, false, Optional.empty(), 0, Map.of("mysql", 0.01), 0.05, 2, 1.848);
		Step.Cpu at16 = new Step.Cpu(0.78, 2, false, Optional.empty(), 0, Map.of("mysql", 0.02), 0.07, 2, 1.939);
		List<Step> steps = new ArrayList<>();
		steps.add(step(1, 7.2, pool(8, 1, 0, 72, 0.130), loop));
		steps.add(step(2, 14.8, pool(8, 2, 0, 148, 0.131), loop));
		steps.add(step(4, 30.3, pool(8, 4, 0, 303, 0.132), loop));
		steps.add(step(8, 45.1, pool(8, 8, 2, 451, 0.168), at8));
		steps.add(step(16, 43.1, pool(8, 8, 8, 431, 0.175), at16));

		Verdict.Capped verdict = (Verdict.Capped) Attribution.of(Readings.of(steps, true)).verdict();

		assertThat(verdict.resource()).isEqualTo(Resource.CPU);
		assertThat(verdict.model().explain()).isEqualTo("0.93 cores / 0.020 s = 46.0 rps");
		assertThat(verdict.modelError()).isLessThan(0.05);
		assertThat(verdict.readings().get(Verdict.Capped.SHARED_CORES))
			.startsWith("other processes took up to 1.07 cores beside the test at the cap");
		assertThat(verdict.readings().get(CpuKind.ROOT)).contains("raising the Hikari connection pool gains at most 2 %"
				+ " while other processes keep their 1.07 cores (the scheduler shares them by runnable threads: a"
				+ " larger pool may win the service more)");
	}

	@Test
	void aHikariPoolCountedInThreadDumpsBesideFullCoresIsWeighedAtItsOwnHoldWithOneUser() {
		// A pool counted in thread dumps at the cap (its meters not read there), 6
		// request threads holding a connection and 8 waiting in its borrow, beside full
		// cores: its model, the dumps' count over W₁ (0.087 s), is 6 / 0.087 s = 69 rps.
		// Its timer read a use with one user at 0.050 s: 6 / 0.050 s = 120 rps, far above
		// the cores' 71.9, so its holds at the cap are waits for a core.
		ThreadDump dump = hikariDump(6, 8);
		List<Step> steps = new ArrayList<>();
		steps.add(step(1, 11.5, pool(8, 1, 0, 115, 0.050), QUIET));
		steps.add(step(2, 23, pool(8, 2, 0, 230, 0.050), QUIET));
		steps.add(step(4, 46, pool(8, 4, 0, 460, 0.052), QUIET));
		steps.add(withDumps(step(16, 69, new GaugeTimeline(Map.of()), FULL), dump));
		steps.add(withDumps(step(32, 69, new GaugeTimeline(Map.of()), FULL), dump));

		Verdict.Capped verdict = (Verdict.Capped) Attribution.of(Readings.of(steps, true)).verdict();
		assertThat(verdict.resource()).isEqualTo(Resource.CPU);
		assertThat(verdict.readings().get(CpuKind.ROOT)).as(verdict.line() + verdict.readings())
			.startsWith("the CPU: the Hikari connection pool is full too"
					+ " (Hikari pool (from a thread dump) 6 request threads hold a connection, 8 wait in its borrow), its"
					+ " hold 0.050 s at 1 user");
	}

	@Test
	void aPoolRaisedUnderACpuRootKeepsItsBoundAtTheLimitTheKnobGaveIt() {
		Analysis analysis = Attribution.of(hikari(0.030, 0.145, FULL));
		// The confirmation's best step with Hikari 20: the pool is not the cap, and what
		// it allows next is its new limit over its hold with one user, not the sweep's
		// 10.
		Step turned = step(32, 72, pool(20, 12, 0, 720, 0.040), FULL);

		assertThat(Attribution.nextCap(analysis, 69, turned)).hasValueSatisfying((next) -> {
			assertThat(next.resource()).isEqualTo(Resource.HIKARI_POOL);
			assertThat(next.what()).isEqualTo("Hikari pool (20 connections)");
			assertThat(next.model().rps()).isCloseTo(666.7, org.assertj.core.data.Offset.offset(0.1));
		});
	}

	@Test
	void aPoolFullOnItsOwnWorkBesideFullCoresKeepsTheVerdictAndSaysWhatRaisingItGains() {
		Verdict verdict = Attribution.of(hikari(0.140, 0.145, FULL)).verdict();

		assertThat(verdict.cap()).hasValue(Resource.HIKARI_POOL);
		assertThat(verdict.line()).isEqualTo("capped at 69.0 rps from 4 users: Hikari pool 10/10 active, 5 pending;"
				+ " the cores are full too: raising it gains at most 4 % — 10 connections / 0.145 s = 69.0 rps");
		assertThat(verdict.readings().get("co-saturated")).isEqualTo("the cores are full too; its hold 0.140 s at 1"
				+ " user, 0.145 s at the cap: full on its own work; raising the Hikari connection pool gains at most 4 %:"
				+ " the cores cap at 71.9 rps; raising the cores gains at most 4 %: at its hold with 1 user the Hikari"
				+ " connection pool allows 10 / 0.140 s = 71.4 rps");
	}

	@Test
	void aPoolWhoseOwnHoldIsNotReadBesideFullCoresSaysTheReadingsCannotTellAndWhatWould() {
		List<Step> steps = new ArrayList<>();
		// 145 ms a request with one user: 10 threads allow 69 rps, and the cores 71.9.
		steps.add(step(1, 6.9, gauges(Map.of(Gauge.TOMCAT_BUSY, 1.0, Gauge.TOMCAT_MAX, 10.0)), QUIET));
		steps.add(step(2, 13.8, gauges(Map.of(Gauge.TOMCAT_BUSY, 2.0, Gauge.TOMCAT_MAX, 10.0)), QUIET));
		steps.add(step(4, 27.6, gauges(Map.of(Gauge.TOMCAT_BUSY, 4.0, Gauge.TOMCAT_MAX, 10.0)), QUIET));
		steps.add(step(8, 55.2, gauges(Map.of(Gauge.TOMCAT_BUSY, 8.0, Gauge.TOMCAT_MAX, 10.0)), QUIET));
		steps.add(step(16, 69, gauges(Map.of(Gauge.TOMCAT_BUSY, 10.0, Gauge.TOMCAT_MAX, 10.0)), FULL));
		steps.add(step(32, 69, gauges(Map.of(Gauge.TOMCAT_BUSY, 10.0, Gauge.TOMCAT_MAX, 10.0)), FULL));

		Verdict verdict = Attribution.of(Readings.of(steps, true)).verdict();

		assertThat(verdict.cap()).hasValue(Resource.TOMCAT_THREADS);
		assertThat(verdict.line()).contains("; the cores are full too: raising it gains at most 4 %");
		assertThat(verdict.readings().get("co-saturated")).endsWith("The readings cannot tell whether the Tomcat"
				+ " request threads are full because the cores are (their own hold is not read): confirming() turns"
				+ " their knob and would");
	}

	@Test
	void aPoolFullWhileTheCoresAreNotIsTheCapAlone() {
		Step.Cpu half = new Step.Cpu(0.6, 2, false, Optional.empty(), 0, Map.of("mysql", 0.2), 0.2, 2, 1.02);

		Verdict verdict = Attribution.of(hikari(0.030, 0.145, half)).verdict();

		assertThat(verdict.cap()).hasValue(Resource.HIKARI_POOL);
		assertThat(verdict.line()).isEqualTo(
				"capped at 69.0 rps from 4 users: Hikari pool 10/10 active, 5 pending — 10 connections / 0.145 s = 69.0 rps");
		assertThat(verdict.readings()).doesNotContainKeys("co-saturated", CpuKind.ROOT, Verdict.Capped.SHARED_CORES);
	}

	@Test
	void aPoolFullBesideANeighboursCoresSaysWhatTheNeighbourTook() {
		Step.Cpu shared = new Step.Cpu(0.6, 2, false, Optional.empty(), 0, Map.of("mysql", 0.2), 0.2, 2, 1.5);

		Verdict verdict = Attribution.of(hikari(0.030, 0.145, shared)).verdict();

		assertThat(verdict.cap()).hasValue(Resource.HIKARI_POOL);
		assertThat(verdict.readings().get(Verdict.Capped.SHARED_CORES)).isEqualTo("other processes took up to 0.50"
				+ " cores beside the test at the cap: the scheduler shares the cores among runnable threads, so what"
				+ " the service reached is its share beside them, and more of its threads (a larger pool) may win it more");
	}

	/**
	 * Hikari 10, a use held {@code atOneUser} with one user and {@code atCap} at the cap,
	 * the cores {@code atCapCpu} from 4 users on.
	 */
	private static Readings hikari(double atOneUser, double atCap, Step.Cpu atCapCpu) {
		List<Step> steps = new ArrayList<>();
		steps.add(step(1, 30, pool(1, 0, 300, atOneUser), QUIET));
		steps.add(step(2, 55, pool(2, 0, 550, atOneUser * 1.1), QUIET));
		steps.add(step(4, 66, pool(4, 0, 660, atOneUser * 1.3), atCapCpu));
		steps.add(step(16, 69, pool(10, 5, 690, atCap), atCapCpu));
		steps.add(step(32, 69, pool(10, 5, 690, atCap), atCapCpu));
		return Readings.of(steps, true);
	}

	@Test
	void aContainerLimitedToACoreBesideANeighbourThatFillsTheMachineHasWhatItLeft() {
		// LedgerRootIT's Hikari 16 beside a busy loop: the service limited to 1 CPU used
		// 0.90 of it on a machine of 2 cores full, 45 rps at 20 ms a request. Its limit
		// promised 50 rps, 11 % high; what it used and the idle cores give 0.91.
		Step.Cpu full = new Step.Cpu(0.9, 1, true, Optional.empty(), 0, Map.of("mysql", 0.05), 0.1, 2, 1.99);
		Step.Cpu quiet = new Step.Cpu(0.9, 1, true, Optional.empty(), 0, Map.of("mysql", 0.05), 0.1, 2, 1.05);

		Verdict.Model besideTheLoop = CpuKind.cpuBound(step(16, 45, pool(16, 16, 0, 450, 0.02), full))
			.orElseThrow()
			.model();
		Verdict.Model alone = CpuKind.cpuBound(step(16, 45, pool(16, 16, 0, 450, 0.02), quiet)).orElseThrow().model();

		assertThat(besideTheLoop.explain()).isEqualTo("0.91 cores / 0.020 s = 45.5 rps");
		assertThat(alone.explain()).isEqualTo("1 core / 0.020 s = 50.0 rps");
	}

	private static GaugeTimeline pool(double active, double pending, double uses, double useSeconds) {
		return pool(10, active, pending, uses, useSeconds);
	}

	private static GaugeTimeline pool(double max, double active, double pending, double uses, double useSeconds) {
		Map<String, List<GaugeTimeline.Sample>> series = new LinkedHashMap<>();
		series.put(Gauge.HIKARI_ACTIVE.label(), samples(0, active));
		series.put(Gauge.HIKARI_MAX.label(), samples(max, max));
		series.put(Gauge.HIKARI_PENDING.label(), samples(0, pending));
		series.put(Gauge.HIKARI_USES.label(), samples(0, uses));
		series.put(Gauge.HIKARI_USAGE_SECONDS.label(), samples(0, uses * useSeconds));
		return new GaugeTimeline(series);
	}

	/**
	 * A dump at the cap: {@code holding} request threads in a query, {@code waiting} in
	 * Hikari's borrow.
	 */
	private static ThreadDump hikariDump(int holding, int waiting) {
		String request = "org.apache.catalina.core.ApplicationFilterChain.doFilter";
		List<ThreadDump.DumpedThread> threads = new ArrayList<>();
		for (int i = 0; i < holding; i++) {
			threads.add(new ThreadDump.DumpedThread("",
					List.of("sun.nio.ch.SocketDispatcher.read",
							"com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeQuery",
							"dev.example.Ledger.get", request)));
		}
		for (int i = 0; i < waiting; i++) {
			List<String> frames = new ArrayList<>(List.of("jdk.internal.misc.Unsafe.park"));
			frames.addAll(HikariPoolKind.DUMPED.waiting());
			frames.addAll(List.of("dev.example.Ledger.get", request));
			threads.add(new ThreadDump.DumpedThread("", frames));
		}
		return new ThreadDump(Path.of("threads-1.json"), threads);
	}

	private static Step withDumps(Step step, ThreadDump dump) {
		return new Step(step.users(), step.result(), step.service(), new GaugeTimeline(Map.of()), step.cpu(), List.of(),
				OptionalInt.empty(), List.of(dump, dump, dump), List.of(), step.wall());
	}

	private static GaugeTimeline gauges(Map<Gauge, Double> maxima) {
		Map<String, List<GaugeTimeline.Sample>> series = new LinkedHashMap<>();
		maxima.forEach((gauge, max) -> series.put(gauge.label(), samples(Math.min(0, max), max)));
		return new GaugeTimeline(series);
	}

	/** Two samples 10 s apart, the step's window: a timer's count grows by its uses. */
	private static List<GaugeTimeline.Sample> samples(double first, double last) {
		return List.of(new GaugeTimeline.Sample(Duration.ZERO, first),
				new GaugeTimeline.Sample(Duration.ofSeconds(10), last));
	}

	/** A 10 s step at {@code rps}, its latency by Little's law, its CPU read. */
	private static Step step(int users, double rps, GaugeTimeline gauges, Step.Cpu cpu) {
		Duration window = Duration.ofSeconds(10);
		List<LoadResult.Second> timeline = new ArrayList<>();
		for (int second = 0; second < 10; second++) {
			timeline.add(new LoadResult.Second(second, Math.round(rps), 0, users * 1000 / rps, true));
		}
		LoadResult result = LoadResults.of("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(Math.round(users * 1000 / rps)), timeline, Duration.ZERO, Double.NaN);
		return new Step(users, result, gauges, new GaugeTimeline(Map.of()), Optional.of(cpu), List.of(),
				OptionalInt.empty(), List.of(), List.of(), window);
	}

}
