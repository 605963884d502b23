package dev.bottleneckkit.probe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import dev.bottleneckkit.internal.LoopbackJmxAgent;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The probe on the test's own JVM. A virtual thread that blocks inside a class
 * initializer pins on every JDK (JEP 491 left that case pinned), so the fixture pins on
 * 21 and 25 alike. It records every pin of this JVM, so it runs with no other test class
 * beside it: one that started a virtual thread in {@code Meters.Http}'s constructor read
 * as a second culprit.
 */
@Isolated
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
	 * A JVM the probe reaches over its agent alone, as a remote engine's service: the
	 * recording is made, streamed back and read over JMX, with nothing of the JVM's on
	 * this host. This JVM behind an agent on loopback stands in for that JVM.
	 */
	@Test
	void readsThePinsOfAJvmOverItsAgentAlone() throws Exception {
		try (LoopbackJmxAgent jvm = LoopbackJmxAgent.start("a remote engine's service");
				PinningProbe probe = PinningProbe.over(jvm.agent()).start()) {

			Thread.ofVirtual().start(SlowInitializerOverJmx::touch).join();

			PinningReport report = probe.read();
			assertThat(report).as("a virtual thread sleeping 60 ms in <clinit>, recorded over the agent")
				.hasPinnedAtLeast(1)
				.hasEveryPinInCode(SlowInitializerOverJmx.class.getName() + ".<clinit>");
			assertThat(Files.size(report.jfrFile())).as("the recording, streamed over JMX, is kept").isPositive();
		}
	}

	/**
	 * Two pins JDK 25 recorded (the program that made them is in the resource's
	 * directory): a virtual thread in {@code com.example.db.SocketReader.fill} that
	 * waited while another thread initialized a class it touched, and one that blocked
	 * inside a class initializer of its own. The first is the class's initialization, not
	 * the code that touched the class: no driver is blamed for it. Both cost each class
	 * once.
	 */
	@Test
	void aWaitForAnotherThreadsClassInitializationIsNamedForTheClassNotTheCodeThatTouchedIt() throws Exception {
		Path recorded = Path.of(PinningProbeTest.class.getResource("/jfr/pins-jdk25.jfr").toURI());

		List<PinnedEvent> events = PinningProbe.parse(recorded);

		assertThat(events).hasSize(2);
		PinnedEvent waited = events.get(0);
		assertThat(waited.frames()).as("the waiter's stack holds the code that touched the class")
			.anyMatch((frame) -> frame.startsWith("com.example.db.SocketReader.fill"));
		assertThat(waited.pinnedReason())
			.hasValue("Waited for initialization of com.example.db.SocketReader$Poller by another thread");
		assertThat(waited.initializationWaitedFor()).hasValue("com.example.db.SocketReader$Poller");
		assertThat(waited.culprit())
			.isEqualTo("initialization of com.example.db.SocketReader$Poller (by another thread)");
		assertThat(waited.why()).isEqualTo(
				"pinned: Waited for initialization of com.example.db.SocketReader$Poller by another thread; blocked in Object.wait");
		assertThat(waited.oneTime()).isTrue();
		PinnedEvent inside = events.get(1);
		assertThat(inside.pinnedReason()).hasValue("VM call to com.example.db.SocketReader$Blocking.<clinit> on stack");
		assertThat(inside.initializationWaitedFor()).isEmpty();
		assertThat(inside.oneTime()).as("an initializer runs once").isTrue();
		PinningReport report = new PinningReport(recorded, events);
		assertThat(report).as("the class's initialization is no pin of the code that touched the class")
			.hasNoPinsCausedBy("com.example.db.SocketReader.fill");
		assertThat(report.describe(3))
			.contains("pinned: Waited for initialization of com.example.db.SocketReader$Poller");
	}

	/** On JDK 21–23 an event has no reason: it is pinned by its code, and says so. */
	@Test
	void anEventWithoutAReasonIsBlamedOnItsCode() {
		PinnedEvent old = new PinnedEvent(java.time.Instant.EPOCH, Duration.ofMillis(1000), "",
				List.of("java.net.SocketInputStream.read:1", "com.mysql.cj.protocol.ReadAheadInputStream.fill:2"));

		assertThat(old.culprit()).isEqualTo("com.mysql.cj.protocol.ReadAheadInputStream.fill:2");
		assertThat(old.why()).isEqualTo("pinned (no reason recorded before JDK 24)");
		assertThat(old.oneTime()).isFalse();
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

	/** The same, for the probe over an agent. */
	static final class SlowInitializerOverJmx {

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
