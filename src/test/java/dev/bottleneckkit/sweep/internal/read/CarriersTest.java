package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.bottleneckkit.internal.LoopbackJmxAgent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The carriers of the test's own JVM: their CPU over JMX against the kernel's count, and
 * their time on a core or waiting for one from {@code /proc}.
 */
class CarriersTest {

	/**
	 * A virtual thread spinning 300 ms gets what the machine gives its carrier: on a core
	 * shared with a busy loop, 0.19 s of it. So the CPU read over JMX is held to what the
	 * kernel counted the carrier threads ran, not to the spin's wall time.
	 */
	@Test
	void readsTheCpuThatRanOnTheCarriers() throws Exception {
		assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "the kernel's count is read from /proc");
		try (Carriers carriers = Carriers.inThisJvm()) {
			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(10))).join();
			Map<Long, Long> before = carriers.readCpuNanos().orElseThrow();
			long kernelBefore = carriersOnACoreNanos();
			long began = System.nanoTime();

			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(300))).join();

			Map<Long, Long> after = carriers.readCpuNanos().orElseThrow();
			double kernel = (carriersOnACoreNanos() - kernelBefore) / 1e9;
			double seconds = (System.nanoTime() - began) / 1e9;
			double cpu = Carriers.cores(before, after, seconds) * seconds;
			assertThat(kernel).as("the spinning virtual thread ran on a carrier").isGreaterThan(0.05);
			assertThat(cpu).as("the carriers' CPU over JMX against the kernel's count (%.3f s)", kernel)
				.isCloseTo(kernel, within(0.02 + 0.05 * kernel));
		}
	}

	/** Time on a core of this JVM's carrier threads so far, as the kernel counts it. */
	private static long carriersOnACoreNanos() throws IOException {
		long nanos = 0;
		try (var tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
			for (Path task : tasks) {
				try {
					if (Files.readString(task.resolve("comm")).trim().matches("ForkJoinPool-\\d+(-.*)?")) {
						nanos += Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split("\\s+")[0]);
					}
				}
				catch (IOException ex) {
					// a thread that ended meanwhile
				}
			}
		}
		return nanos;
	}

	@Test
	void readsTheCarriersTimeOnACoreAndWaitingForOneFromTheHost() throws Exception {
		try (Carriers carriers = Carriers.inThisJvm()) {
			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(10))).join();
			Map<Long, Long> before = carriers.readTimeNanos().orElseThrow();
			long began = System.nanoTime();

			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(300))).join();

			Map<Long, Long> after = carriers.readTimeNanos().orElseThrow();
			double seconds = (System.nanoTime() - began) / 1e9;
			double cores = Carriers.cores(before, after, seconds);
			// A carrier woken to look for work also counts its time on a core and its
			// wait for one, so the whole may pass the wall time, but never every
			// carrier's.
			assertThat(cores * seconds).as("the 300 ms a virtual thread was runnable took a carrier")
				.isBetween(0.25, after.size() * seconds + 0.05);
		}
	}

	/**
	 * A remote engine's container: its JVM's threads are no process of this host, so the
	 * carriers' time is their CPU read over the JVM's agent, and stays so for the probe's
	 * life. This JVM behind an agent on loopback stands in for that JVM.
	 */
	@Test
	void aJvmWhoseThreadsThisHostDoesNotShowIsReadOverItsAgent() throws Exception {
		try (LoopbackJmxAgent jvm = LoopbackJmxAgent.start("a remote engine's service");
				Carriers carriers = Carriers.connect(jvm.agent(), List::of)) {
			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(10))).join();
			Map<Long, Long> before = carriers.readTimeNanos().orElseThrow();
			long began = System.nanoTime();

			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(300))).join();

			Map<Long, Long> after = carriers.readTimeNanos().orElseThrow();
			double seconds = (System.nanoTime() - began) / 1e9;
			Set<Long> javaIds = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> thread.getName().matches("ForkJoinPool-\\d+-worker-\\d+"))
				.map(Thread::threadId)
				.collect(Collectors.toSet());
			assertThat(after.keySet()).as("the carriers by their Java thread ids, as the agent names them")
				.isNotEmpty()
				.isSubsetOf(javaIds);
			assertThat(Carriers.cores(before, after, seconds) * seconds)
				.as("the 300 ms a virtual thread spun, on a carrier's CPU clock")
				.isBetween(0.05, after.size() * seconds + 0.05);
			assertThat(carriers.readCount()).as("the scheduler's parallelism, read over the agent")
				.hasValue(Runtime.getRuntime().availableProcessors());
		}
	}

	@Test
	void aCarriersTimeIsItsTimeOnACoreAndItsWaitForOne() {
		assertThat(Carriers.onCoreAndWaiting("1571266283 456051717 158\n")).hasValue(2_027_318_000L);
		assertThat(Carriers.onCoreAndWaiting("garbage")).isEmpty();
	}

	@Test
	void aCarrierThatBeganBetweenTwoReadingsCountsFromNothing() {
		Map<Long, Long> before = Map.of(1L, 5_000_000_000L);
		Map<Long, Long> after = Map.of(1L, 5_500_000_000L, 2L, 300_000_000L);

		assertThat(Carriers.cores(before, after, 2.0)).isCloseTo(0.4, within(1e-9));
	}

	/** Busy on the CPU for {@code wall}: a virtual thread has no CPU clock of its own. */
	private static void spin(Duration wall) {
		long end = System.nanoTime() + wall.toNanos();
		long sink = 0;
		while (System.nanoTime() < end) {
			sink += System.nanoTime() % 7;
		}
		if (sink == 42) {
			System.out.print("");
		}
	}

}
