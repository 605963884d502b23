package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.MemoryProbe;
import dev.bottleneckkit.probe.MemoryProbe.MemoryReading;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import com.github.dockerjava.api.command.InspectContainerResponse;
import org.testcontainers.containers.Network;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * S12 (seed 002: {@code wrk -c1000} against a thread-pool service ended in {@code OutOfMemoryError}, the
 * virtual-thread service stayed stable): memory per waiting request. A downstream holds {@value #USERS}
 * requests at once on a blocking 5 s route, on platform threads (Tomcat sized for them) and on virtual threads.
 * <ol>
 * <li>Unlimited, the {@link MemoryProbe} reads both services before the load and while the requests wait:
 * Native Memory Tracking's threads and stacks, the live heap, and the container's anonymous memory. A platform
 * thread per request commits its stack outside the heap, and the container grows by exactly that; a virtual
 * thread adds no platform thread and next to nothing outside the heap.</li>
 * <li>Then both run under a memory limit computed from those costs: the idle service plus half of what the
 * platform threads' stacks need. The kernel kills the platform service (OOM kill, exit 137); the virtual one
 * serves every user.</li>
 * </ol>
 * The heap is fixed and pre-touched ({@value #HEAP}), so the container's memory moves only with what lives
 * outside it.
 */
@Scenario(id = "S12", title = "Memory per waiting request: a platform thread's stack against a virtual thread's")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MemoryPerWaitingRequestIT {

	enum Threads {

		PLATFORM, VIRTUAL

	}

	static final int USERS = 1000;

	static final Duration HOLD = Duration.ofSeconds(5);

	/**
	 * The users start together and come back in waves every 5 s or so, so a window's throughput is
	 * quantised: 10 s after a 2 s warm-up holds two waves (200 rps), 6 s would hold one (167 rps). The runs are
	 * judged by Little's law on the mean latency, which waves do not bend.
	 */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(10))
		.requestTimeout(Duration.ofSeconds(30));

	static final Ceiling WAITING = Ceiling.of(USERS, "users, each waiting " + HOLD.toSeconds() + " s", HOLD);

	static final ClosedLoopLoad WARM_UP = ClosedLoopLoad.users(20).warmUp(Duration.ZERO).forDuration(Duration.ofSeconds(3));

	/** A fixed, pre-touched heap: the container's memory then moves only with what lives outside it. */
	static final String HEAP = "-Xms192m -Xmx192m -XX:+AlwaysPreTouch";

	static final long MIB = 1_048_576;

	static final double KIB = 1024;

	static final Network network = KitResources.newNetwork();

	static final Map<Threads, Cost> costs = new EnumMap<>(Threads.class);

	/** What {@link #USERS} waiting requests cost, from a reading before the load and one while they wait. */
	record Cost(MemoryReading idle, MemoryReading loaded, int inFlight) {

		int newThreads() {
			return this.loaded.platformThreads() - this.idle.platformThreads();
		}

		/** Growth of the container's anonymous memory per waiting request: what a memory limit sees. */
		double containerPerRequest() {
			return (this.loaded.containerBytes() - this.idle.containerBytes()) / (double) this.inFlight;
		}

		/** Stack memory committed per new platform thread (NMT), 0 without new threads. */
		double stackPerThread() {
			int threads = newThreads();
			return (threads <= 0) ? 0
					: (this.loaded.threadStacksCommitted() - this.idle.threadStacksCommitted()) / (double) threads;
		}

		/** Growth of live heap per waiting request: buffers and request objects, and a virtual thread's stack. */
		double heapPerRequest() {
			return (this.loaded.heapUsed() - this.idle.heapUsed()) / (double) this.inFlight;
		}

		Map<String, Object> evidence() {
			return ScenarioReport.evidence("in flight", this.inFlight, "new platform threads", newThreads(),
					"stack per new thread", kib(stackPerThread()), "container per request", kib(containerPerRequest()),
					"live heap per request", kib(heapPerRequest()), "idle", this.idle.toString(), "waiting",
					this.loaded.toString());
		}

		@Override
		public String toString() {
			return evidence().toString();
		}

		private static String kib(double bytes) {
			return String.format(Locale.ROOT, "%.1f KiB", bytes / KIB);
		}

	}

	@ParameterizedTest(name = "{0} threads")
	@EnumSource(Threads.class)
	@Order(1)
	void eachWaitingRequestCostsAPlatformThreadsStackOrAlmostNothingOutsideTheHeap(Threads threads,
			ScenarioReport report) {
		try (LabServiceContainer service = downstream(threads); MemoryProbe memory = MemoryProbe.on(service)) {
			service.start();
			WARM_UP.named(threads + " warm-up").run(service.uri("/work/sleep?latency=50ms"));
			MemoryReading idle = memory.read();

			CompletableFuture<LoadResult> load = CompletableFuture
				.supplyAsync(() -> LOAD.named(threads + ", " + USERS + " waiting").run(service.uri(route())));
			int inFlight = await("most of " + USERS + " requests waiting at once").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> service.inFlight().read().current(), (now) -> now >= USERS * 95 / 100);
			MemoryReading loaded = memory.read();
			LoadResult result = load.join();

			Cost cost = new Cost(idle, loaded, inFlight);
			costs.put(threads, cost);
			report.record(threads + " threads, " + USERS + " requests waiting " + HOLD.toSeconds() + " s", result, WAITING,
					cost.evidence());
			assertThat(result).as("%s: every user held %d s, none queued for a thread", threads, HOLD.toSeconds())
				.hasNoErrors()
				.hasMeanLatencyNear(HOLD, 0.15);
			if (threads == Threads.PLATFORM) {
				org.assertj.core.api.Assertions.assertThat(cost.newThreads())
					.as("a platform thread per waiting request: %s", cost)
					.isGreaterThanOrEqualTo(inFlight * 9 / 10);
				org.assertj.core.api.Assertions.assertThat(cost.containerPerRequest() / cost.stackPerThread())
					.as("the container grew by what the new threads' stacks committed: %s", cost)
					.isBetween(0.8, 1.2);
			}
			else {
				double platformStack = costs.containsKey(Threads.PLATFORM) ? costs.get(Threads.PLATFORM).stackPerThread()
						: Double.NaN;
				org.assertj.core.api.Assertions.assertThat(cost.newThreads())
					.as("virtual threads are not threads to the VM: no new platform thread: %s", cost)
					.isLessThanOrEqualTo(8);
				org.assertj.core.api.Assertions.assertThat(cost.containerPerRequest())
					.as("outside the heap a waiting virtual thread costs under a tenth of the platform thread's stack "
							+ "measured before it (%.0f KiB): %s", platformStack / KIB, cost)
					.isLessThan(platformStack / 10);
			}
		}
	}

	@Test
	@Order(2)
	void underAMemoryLimitThatFitsOnlyVirtualThreadsThePlatformServiceIsKilled(ScenarioReport report) {
		org.assertj.core.api.Assertions.assertThat(costs).as("test 1 measured both thread models").hasSize(2);
		Cost platform = costs.get(Threads.PLATFORM);
		Cost virtual = costs.get(Threads.VIRTUAL);
		long idle = Math.max(platform.idle().containerBytes(), virtual.idle().containerBytes());
		long platformNeeds = idle + Math.round(USERS * platform.containerPerRequest());
		long virtualNeeds = idle + Math.round(USERS * virtual.containerPerRequest());
		// Half of what the platform threads' stacks need: the platform service cannot fit, the virtual one fits.
		int limitMiB = (int) ((idle + Math.round(USERS * platform.stackPerThread() / 2)) / MIB);
		String sizing = String.format(Locale.ROOT, "limit %d MiB: idle %d MiB; %d waiting requests need %d MiB on platform "
				+ "threads, %d MiB on virtual threads", limitMiB, idle / MIB, USERS, platformNeeds / MIB, virtualNeeds / MIB);
		org.assertj.core.api.Assertions.assertThat(limitMiB * MIB)
			.as("the limit leaves the virtual service headroom (%s)", sizing)
			.isGreaterThan(virtualNeeds + 32 * MIB);

		for (Threads threads : Threads.values()) {
			try (LabServiceContainer service = downstream(threads).withMemoryLimit(limitMiB);
					MemoryProbe memory = MemoryProbe.on(service)) {
				service.start();
				WARM_UP.named(threads + " warm-up, " + limitMiB + " MiB").run(service.uri("/work/sleep?latency=50ms"));

				LoadResult result = LOAD.named(threads + ", " + USERS + " waiting, " + limitMiB + " MiB").run(service.uri(route()));
				InspectContainerResponse.ContainerState state = service.getDockerClient()
					.inspectContainerCmd(service.getContainerId())
					.exec()
					.getState();
				boolean killed = Boolean.TRUE.equals(state.getOOMKilled());

				Map<String, Object> evidence = ScenarioReport.evidence("limit", limitMiB + " MiB", "sizing", sizing,
						"OOM-killed", killed, "exit code", state.getExitCodeLong());
				if (!killed) {
					evidence.put("memory while serving", memory.read().toString());
				}
				report.record(threads + " threads under " + limitMiB + " MiB", result, WAITING, evidence);
				if (threads == Threads.PLATFORM) {
					org.assertj.core.api.Assertions.assertThat(killed)
						.as("the kernel's OOM killer ended the platform service (%s; exit %s; %s)", sizing,
								state.getExitCodeLong(), result.errors())
						.isTrue();
					org.assertj.core.api.Assertions.assertThat(state.getExitCodeLong()).as("SIGKILL: 128 + 9").isEqualTo(137L);
					org.assertj.core.api.Assertions.assertThat(result.errorCount())
						.as("its users got errors, not answers: %s", result.errors())
						.isGreaterThan(result.succeeded());
				}
				else {
					org.assertj.core.api.Assertions.assertThat(killed).as("the virtual service lives (%s)", sizing).isFalse();
					assertThat(result).as("virtual threads under %d MiB: every user held %d s", limitMiB, HOLD.toSeconds())
						.hasNoErrors()
						.hasMeanLatencyNear(HOLD, 0.15);
					org.assertj.core.api.Assertions.assertThat(result.succeeded())
						.as("every user answered within the window").isGreaterThanOrEqualTo(USERS * 9 / 10);
				}
			}
		}
	}

	private static LabServiceContainer downstream(Threads threads) {
		// Room in the accept queue for every user: the load opens its 1000 connections at once, and Tomcat's default
		// backlog of 100 would have the kernel drop SYNs, retried a second later, which the latencies would carry.
		LabServiceContainer service = LabServiceContainer.downstream(network).withJvmOptions(HEAP)
			.withSpringProperty("server.tomcat.accept-count", USERS);
		return (threads == Threads.VIRTUAL) ? service.withVirtualThreads(true)
				: service.withVirtualThreads(false).withTomcatMaxThreads(USERS + 100);
	}

	private static String route() {
		return "/work/sleep?latency=" + HOLD.toMillis() + "ms";
	}

}
