package dev.bottleneckkit.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
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
import org.junit.jupiter.api.parallel.Isolated;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * S9 (seed 003's {@code /compute}): a CPU-bound route on a service limited to one CPU. A
 * request needs the CPU for all of its time, so the core is the cap, X = U / S (the
 * utilization law: one core over the CPU a request costs), whichever threads serve it:
 * virtual threads add no cores. S is measured in the run itself, from the container's
 * cgroup (JIT, GC and Tomcat included), so the ceiling holds on any machine. Its hold is
 * the work itself, about 130 ms of CPU a request: there is no wait to shorten.
 */
@Scenario(id = "S9", title = "Virtual threads add no cores: a CPU-bound route on one CPU")
// The CPU is what this scenario measures: it runs alone, after the scenarios that run
// side by side.
@Isolated
class CpuBoundVirtualThreadsIT {

	/** SHA-256 rounds per request: some tens of milliseconds of CPU. */
	static final int ITERATIONS = 100_000;

	static final int USERS = 8;

	/** Ticks per second of {@code /proc/stat} (USER_HZ). */
	static final double TICKS_PER_SECOND = 100.0;

	/** The machine's cores, which the service's 1 CPU shares with the load generator. */
	static final int CORES = Runtime.getRuntime().availableProcessors();

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer platform = LabServiceContainer.downstream(network)
		.withCpuLimit(1)
		.withVirtualThreads(false)
		.withName("platform-threads-1-cpu");

	@Container
	static final LabServiceContainer virtual = LabServiceContainer.downstream(network)
		.withCpuLimit(1)
		.withVirtualThreads(true)
		.withName("virtual-threads-1-cpu");

	/**
	 * Both kinds of threads reach the same ceiling, one core's: the utilization law's X =
	 * 1 CPU / S, S each run's CPU a request from the container's cgroup. Two claims, read
	 * from different figures:
	 * <ul>
	 * <li>the CPU limit is the cap: each run holds its throughput to 1 CPU / S, and its
	 * cores busy to its 1 CPU (within 15 %), while the machine's other processes left it
	 * that core (they took at most one of the machine's cores); a run whose neighbours
	 * took more is not held to its limit, and the console says so;</li>
	 * <li>virtual threads add no cores: the virtual-thread run's cores busy (its
	 * throughput × S) within 15 % of the platform-thread run's, in every run.</li>
	 * </ul>
	 * The second is the headline and runs always; the console says which runs the first
	 * held. The machine's cores (2 CPUs / S), the model had the limit not held, must fail
	 * on the same figures.
	 */
	@Test
	void platformAndVirtualThreadsHitTheSameCpuCeiling(ScenarioReport report) {
		Measured onPlatform = measure(platform, "platform threads", report);
		Measured onVirtual = measure(virtual, "virtual threads", report);

		for (Measured run : new Measured[] { onPlatform, onVirtual }) {
			if (!run.limitLeft()) {
				System.out.printf(Locale.ROOT, "[bottleneck-kit] S9 %s: not held to its 1 CPU: the machine's other "
						+ "processes took %.2f of its %d cores%n", run.threads, run.others, CORES);
				continue;
			}
			System.out.printf(Locale.ROOT,
					"[bottleneck-kit] S9 %s: held to its 1 CPU (others took %.2f cores): %.2f "
							+ "cores busy, %.1f rps against 1 CPU / %d ms = %.1f rps%n",
					run.threads, run.others, run.coresBusy, run.load.throughput(), run.cpu.latency().toMillis(),
					run.cpu.throughputFor(USERS));
			assertThat(run.coresBusy).as("%s: the one core is busy all the time, so it is the cap", run.threads)
				.isCloseTo(1.0, withPercentage(15));
			assertThat(run.load)
				.as("%s: throughput is one core / CPU per request; users queue for the core", run.threads)
				.hasNoErrors()
				.hasThroughputNear(run.cpu, withPercentage(15))
				.hasMeanLatencyNear(run.cpu.latencyFor(USERS), withPercentage(25));
			Ceiling cores = Ceiling.of(CORES, "the machine's cores, had the limit not held", run.cpu.latency());
			assertThatThrownBy(() -> assertThat(run.load).hasThroughputNear(cores, withPercentage(15)))
				.as("%s: the machine's %d cores / %d ms, a wrong model, fails on the same figures", run.threads, CORES,
						run.cpu.latency().toMillis())
				.isInstanceOf(AssertionError.class);
		}
		System.out.printf(Locale.ROOT, "[bottleneck-kit] S9: virtual threads %.2f cores busy, platform threads %.2f%n",
				onVirtual.coresBusy, onPlatform.coresBusy);
		assertThat(onVirtual.coresBusy).as("virtual threads add no cores: as busy as the platform threads' run")
			.isCloseTo(onPlatform.coresBusy, withPercentage(15));
	}

	private static Measured measure(LabServiceContainer service, String threads, ScenarioReport report) {
		var route = service.uri("/work/cpu?iterations=" + ITERATIONS);
		ClosedLoopLoad.users(USERS)
			.warmUp(Duration.ZERO)
			.forDuration(Duration.ofSeconds(3))
			.named(threads + ", JIT warm-up")
			.run(route);
		Duration cpuBefore = service.readCpuUsed();
		OptionalLong machineBefore = machineBusyTicks();
		long started = System.nanoTime();
		// The window opens on the queue in its stride, two mean latencies in: one that
		// opened on it empty would credit the lives of the requests waiting at its end
		// with none begun before its start to balance them (8 % high, one at a time on
		// one carrier). The CPU and the requests are both counted over the whole run.
		LoadResult loaded = ClosedLoopLoad.users(USERS)
			.warmUp(Duration.ofSeconds(2))
			.forDuration(Duration.ofSeconds(6))
			.named(threads + ", " + USERS + " users")
			.run(route);
		Duration wall = Duration.ofNanos(System.nanoTime() - started);
		Duration cpuUsed = service.readCpuUsed().minus(cpuBefore);
		OptionalLong machineAfter = machineBusyTicks();

		// Every request of the run, in its warm-up and after its window too: the CPU
		// reading covers them all.
		long requests = loaded.timeline().stream().mapToLong((second) -> second.succeeded() + second.failed()).sum();
		Duration cpuPerRequest = cpuUsed.dividedBy(Math.max(1, requests));
		double coresBusy = cpuUsed.toNanos() / (double) wall.toNanos();
		// What the machine's other processes took (the load generator among them): a
		// neighbour's busy loop on one of two cores leaves the service the other, shared
		// with the load generator, less than its limit. Where the machine cannot be read,
		// nothing is known to have taken the service's core.
		double others = 0;
		if (machineBefore.isPresent() && machineAfter.isPresent()) {
			double machineBusy = (machineAfter.getAsLong() - machineBefore.getAsLong()) / TICKS_PER_SECOND
					/ (wall.toNanos() / 1e9);
			others = Math.max(0, machineBusy - coresBusy);
		}
		Ceiling core = Ceiling.of(1, "CPU core (the container's limit)", cpuPerRequest);
		report.record(threads + ", " + USERS + " users on 1 CPU", loaded, core,
				ScenarioReport.evidence("CPU per request (cgroup)", cpuPerRequest.toMillis() + " ms", "cores busy",
						String.format(Locale.ROOT, "%.2f of 1", coresBusy), "other processes",
						String.format(Locale.ROOT, "%.2f of %d cores", others, CORES)));
		return new Measured(threads, core, loaded, coresBusy, others);
	}

	/**
	 * The machine's busy CPU ticks so far ({@code /proc/stat}: every process on the
	 * Docker host this test runs on), empty where there is no such file.
	 */
	private static OptionalLong machineBusyTicks() {
		try {
			String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			long busy = 0;
			for (int i = 1; i < Math.min(fields.length, 9); i++) {
				// user nice system idle iowait irq softirq steal: idle and iowait are not
				// busy.
				busy += (i == 4 || i == 5) ? 0 : Long.parseLong(fields[i]);
			}
			return OptionalLong.of(busy);
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
	}

	/**
	 * One run: its model (1 CPU / its CPU a request), its load, the cores its container
	 * used and what the machine's other processes took meanwhile.
	 */
	private record Measured(String threads, Ceiling cpu, LoadResult load, double coresBusy, double others) {

		/**
		 * Whether the machine's other processes left the service its 1 CPU: they took at
		 * most the rest of its cores (a twentieth of a core's slack, the ticks'
		 * rounding).
		 */
		boolean limitLeft() {
			return this.others <= CORES - 1 + 0.05;
		}

	}

	/**
	 * Attribution: a sweep of the CPU-bound route, and of a route that only waits, on the
	 * same one-CPU service.
	 */
	@Nested
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class Attribution {

		@Test
		@Order(1)
		void aSweepOfTheCpuBoundRouteNamesTheCpu(ScenarioReport report) {
			// Half a CPU less, not more: on two cores shared with the load generator (and
			// in the soak with a busy loop on one of them) a raise may not be there to
			// give; a lowered limit always is, and the ceiling must fall as far.
			SweepResult sweep = Sweep.of(virtual, "/work/cpu?iterations=" + ITERATIONS)
				.named("S9 CPU-bound route, 1 CPU")
				.upToUsers(16)
				.confirming(Knob.of("0.5 CPU", 0.5, (service) -> service.withCpuLimit(0.5)))
				.run();

			report.record("sweep: CPU-bound route on 1 CPU", sweep);
			// The cores' model is the CPU of the step's window over its requests. Read
			// over the whole step, it paid the warm-up's, the probes' and the compiler's
			// CPU too, and clean runs read it at 0.934, 0.867 and 0.833 of the ceiling.
			assertThat(sweep).isCappedBy(Resource.CPU)
				.hasCeilingNearItsModel(withPercentage(15))
				.isConfirmedWithin(withPercentage(20));
		}

		/**
		 * Runs after the confirmation, which left the service on 0.5 CPU: the sweep's
		 * first use puts it back on 1 CPU before any request.
		 */
		@Test
		@Order(2)
		void aSweepOfARouteThatOnlyWaitsFindsNoCpuCap(ScenarioReport report) {
			SweepResult sweep = Sweep.of(virtual, "/work/sleep?latency=200ms")
				.named("S9 waiting route, 1 CPU")
				.upToUsers(16)
				.run();

			assertThat(virtual.getContainerInfo().getHostConfig().getNanoCPUs())
				.as("the service the sweep measured is on 1 CPU again, the confirmation's 0.5 CPU undone")
				.isEqualTo(1_000_000_000L);

			report.record("sweep: waiting route on 1 CPU", sweep);
			assertThat(sweep).isNotCappedBy(Resource.CPU).hasNoCap();
		}

	}

}
