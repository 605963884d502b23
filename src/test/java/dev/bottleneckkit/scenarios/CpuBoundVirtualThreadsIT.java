package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * S9 (seed 003's {@code /compute}): a CPU-bound route on a service limited to one CPU. A request needs the
 * CPU for all of its time, so the core is the cap, 1 / (CPU time per request), whichever threads serve it:
 * platform and virtual threads reach the same throughput. The CPU time per request is measured in the run
 * itself (one user, nothing queued), so the ceiling holds on any machine.
 */
@Scenario(id = "S9", title = "Virtual threads add no cores: a CPU-bound route on one CPU")
class CpuBoundVirtualThreadsIT {

	/** SHA-256 rounds per request: some tens of milliseconds of CPU. */
	static final int ITERATIONS = 100_000;

	static final int USERS = 8;

	static final Network network = KitResources.newNetwork();

	@Test
	void platformAndVirtualThreadsHitTheSameCpuCeiling(ScenarioReport report) {
		Measured platform = measure(false, report);
		Measured virtual = measure(true, report);

		// Each run against the core's ceiling measured in its own container: two runs minutes apart on a noisy
		// machine do not share a CPU budget, so their raw throughputs are not compared with each other.
		assertThat(virtual.load.throughput() / virtual.cpu.throughputFor(USERS))
			.as("virtual threads add no cores: they reach the one core's ceiling as platform threads do")
			.isCloseTo(platform.load.throughput() / platform.cpu.throughputFor(USERS), within(0.15));
		assertThat(platform.load).as("platform threads: 1 core / CPU time per request; users queue for the core")
			.hasNoErrors()
			.hasThroughputNear(platform.cpu, 0.2)
			.hasMeanLatencyNear(platform.cpu.latencyFor(USERS), 0.25);
		assertThat(virtual.load).as("virtual threads: 1 core / CPU time per request; users queue for the core")
			.hasNoErrors()
			.hasThroughputNear(virtual.cpu, 0.2)
			.hasMeanLatencyNear(virtual.cpu.latencyFor(USERS), 0.25);
	}

	private static Measured measure(boolean virtualThreads, ScenarioReport report) {
		String threads = virtualThreads ? "virtual threads" : "platform threads";
		try (LabServiceContainer service = LabServiceContainer.downstream(network)
			.withCpuLimit(1)
			.withVirtualThreads(virtualThreads)) {
			service.start();
			var route = service.uri("/work/cpu?iterations=" + ITERATIONS);

			LoadResult alone = ClosedLoopLoad.users(1).warmUp(Duration.ofSeconds(3)).forDuration(Duration.ofSeconds(4))
				.named(threads + ", one user (CPU time per request)")
				.run(route);
			Ceiling cpu = Ceiling.of(1, "CPU core", alone.meanLatency());
			LoadResult loaded = ClosedLoopLoad.users(USERS).warmUp(Duration.ofSeconds(2)).forDuration(Duration.ofSeconds(6))
				.named(threads + ", " + USERS + " users")
				.run(route);

			report.record(threads + ", " + USERS + " users on 1 CPU", loaded, cpu,
					Map.of("CPU time per request (1 user, mean)", alone.meanLatency().toMillis() + " ms"));
			return new Measured(cpu, loaded);
		}
	}

	private record Measured(Ceiling cpu, LoadResult load) {
	}

}
