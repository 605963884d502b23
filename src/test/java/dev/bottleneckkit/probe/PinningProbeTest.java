package dev.bottleneckkit.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The probe on the test's own JVM. A virtual thread that blocks inside a class
 * initializer pins on every JDK (JEP 491 left that case pinned), so the fixture pins on
 * 21 and 25 alike.
 */
class PinningProbeTest {

	@Test
	void reportsAPinWithTheFrameThatBlocked() throws Exception {
		try (PinningProbe probe = PinningProbe.inThisJvm("this-jvm").start()) {

			Thread.ofVirtual().start(SlowInitializer::touch).join();

			PinningReport report = probe.read();
			assertThat(report).as("a virtual thread sleeping 60 ms in <clinit>")
				.hasPinnedAtLeast(1)
				.hasEveryPinInCode(SlowInitializer.class.getName() + ".<clinit>");
			assertThat(report.culprits().keySet()).as("the culprit is the first frame outside the JDK")
				.singleElement()
				.asString()
				.startsWith(SlowInitializer.class.getName() + ".<clinit>:");
			assertThat(report.totalPinned()).as("pinned about as long as it slept")
				.isGreaterThanOrEqualTo(Duration.ofMillis(55));
			assertThat(Files.size(report.jfrFile())).as("the .jfr evidence is kept").isPositive();
		}
	}

	/**
	 * A virtual thread spinning 300 ms gets what the machine gives its carrier: on a core
	 * shared with a busy loop, 0.19 s of it. So the CPU read over JMX is held to what the
	 * kernel counted the carrier threads ran, not to the spin's wall time.
	 */
	@Test
	void readsTheCpuThatRanOnTheCarriers() throws Exception {
		assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "the kernel's count is read from /proc");
		try (PinningProbe probe = PinningProbe.inThisJvm("this-jvm").start()) {
			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(10))).join();
			Map<Long, Long> before = probe.carrierCpuNanos().orElseThrow();
			long kernelBefore = carriersOnACoreNanos();
			long began = System.nanoTime();

			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(300))).join();

			Map<Long, Long> after = probe.carrierCpuNanos().orElseThrow();
			double kernel = (carriersOnACoreNanos() - kernelBefore) / 1e9;
			double seconds = (System.nanoTime() - began) / 1e9;
			double cpu = PinningProbe.carrierCores(before, after, seconds) * seconds;
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
		try (PinningProbe probe = PinningProbe.inThisJvm("this-jvm").start()) {
			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(10))).join();
			Map<Long, Long> before = probe.carrierTimeNanos().orElseThrow();
			long began = System.nanoTime();

			Thread.ofVirtual().start(() -> spin(Duration.ofMillis(300))).join();

			Map<Long, Long> after = probe.carrierTimeNanos().orElseThrow();
			double seconds = (System.nanoTime() - began) / 1e9;
			double cores = PinningProbe.carrierCores(before, after, seconds);
			// A carrier woken to look for work also counts its time on a core and its
			// wait for one, so the whole may pass the wall time, but never every
			// carrier's.
			assertThat(cores * seconds).as("the 300 ms a virtual thread was runnable took a carrier")
				.isBetween(0.25, after.size() * seconds + 0.05);
		}
	}

	@Test
	void aCarriersTimeIsItsTimeOnACoreAndItsWaitForOne() {
		assertThat(PinningProbe.onCoreAndWaiting("1571266283 456051717 158\n")).hasValue(2_027_318_000L);
		assertThat(PinningProbe.onCoreAndWaiting("garbage")).isEmpty();
	}

	@Test
	void aCarrierThatBeganBetweenTwoReadingsCountsFromNothing() {
		Map<Long, Long> before = Map.of(1L, 5_000_000_000L);
		Map<Long, Long> after = Map.of(1L, 5_500_000_000L, 2L, 300_000_000L);

		assertThat(PinningProbe.carrierCores(before, after, 2.0)).isCloseTo(0.4, within(1e-9));
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

	@Test
	void reportsNothingWhenVirtualThreadsBlockUnpinned() throws Exception {
		try (PinningProbe probe = PinningProbe.inThisJvm("this-jvm").start()) {

			Thread.ofVirtual().start(PinningProbeTest::sleepUnderReentrantLock).join();

			assertThat(probe.read()).as("ReentrantLock lets the virtual thread unmount").hasNoPinnedThreads();
		}
	}

	@Test
	void aFailedNoPinningAssertionPrintsTheCulpritAndStack() throws Exception {
		try (PinningProbe probe = PinningProbe.inThisJvm("this-jvm").start()) {
			Thread.ofVirtual().start(AnotherSlowInitializer::touch).join();
			PinningReport report = probe.read();

			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(report).hasNoPinnedThreads())
				.withMessageContaining("expected no pinned virtual threads, but found 1 pinned event(s)")
				.withMessageContaining("culprits: " + AnotherSlowInitializer.class.getName() + ".<clinit>")
				.withMessageContaining("at java.lang.Thread.sleep");
			assertThat(report).as("pinned, but not by the driver").hasNoPinsCausedBy("com.mysql.cj.");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> assertThat(report).hasNoPinsCausedBy(AnotherSlowInitializer.class.getName()))
				.withMessageContaining("expected no pinned virtual thread blocked in "
						+ AnotherSlowInitializer.class.getName() + ", but 1 of 1 were");
		}
	}

	private static void sleepUnderReentrantLock() {
		ReentrantLock lock = new ReentrantLock();
		lock.lock();
		try {
			Thread.sleep(60);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			lock.unlock();
		}
	}

	/** Blocks 60 ms in its class initializer, the first time a thread touches it. */
	static final class SlowInitializer {

		static {
			try {
				Thread.sleep(60);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		static void touch() {
		}

	}

	/** The same, for a second test: each class initializes once per JVM. */
	static final class AnotherSlowInitializer {

		static {
			try {
				Thread.sleep(60);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		static void touch() {
		}

	}

}
