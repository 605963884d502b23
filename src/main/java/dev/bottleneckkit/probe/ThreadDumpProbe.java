package dev.bottleneckkit.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.remote.JMXConnector;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.ReportDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * Takes thread dumps that include virtual threads, from the test's JVM or a JVM in a
 * container, with no change to the service: {@code HotSpotDiagnosticMXBean.dumpThreads}
 * in JSON (JDK 21+), reached through the JVM's JMX agent (see {@link JmxAgent};
 * {@code jstack} and the classic {@code ThreadMXBean} dump leave virtual threads out). It
 * answers where threads wait, e.g. how many request threads are parked on an appender's
 * lock.
 *
 * <pre>{@code
 * ThreadDumpProbe threads = ThreadDumpProbe.on(service);   // before service.start()
 * service.start();
 * ... load running ...
 * ThreadDump dump = threads.take();
 * dump.waitingForLockIn("ch.qos.logback.core.OutputStreamAppender").size();
 * }</pre>
 *
 * Each dump is kept under {@code target/bottleneck-report/threads/}.
 */
public final class ThreadDumpProbe implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(ThreadDumpProbe.class);

	private static final String DIAGNOSTIC = "com.sun.management:type=HotSpotDiagnostic";

	private static final AtomicInteger dumps = new AtomicInteger();

	private final String name;

	private final GenericContainer<?> container;

	private final JmxAgent agent;

	private JMXConnector connector;

	private HotSpotDiagnosticMXBean diagnostic;

	private ThreadDumpProbe(String name, GenericContainer<?> container, JmxAgent agent) {
		this.name = name;
		this.container = container;
		this.agent = agent;
	}

	/** A probe on the test's own JVM. */
	public static ThreadDumpProbe inThisJvm(String name) {
		return new ThreadDumpProbe(name, null, null);
	}

	/**
	 * A probe on the JVM in {@code container}: on a {@code ServiceContainer}, before or
	 * after it starts (it runs its JMX agent unless told not to); on any other container,
	 * before it starts (the probe enables JMX).
	 */
	public static ThreadDumpProbe on(GenericContainer<?> container) {
		JmxAgent agent = JmxAgent.on(container);
		return new ThreadDumpProbe(agent.name(), container, agent);
	}

	/**
	 * Dumps every thread of the JVM now, copies the dump beside the report and reads it.
	 */
	public ThreadDump take() {
		long started = System.nanoTime();
		int number = dumps.incrementAndGet();
		Path local = evidenceDir()
			.resolve(this.name.replaceAll("[^A-Za-z0-9._-]", "_") + "-threads-" + number + ".json");
		try {
			Files.deleteIfExists(local);
			if (this.container == null) {
				ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
					.dumpThreads(local.toAbsolutePath().toString(), ThreadDumpFormat.JSON);
			}
			else {
				String remote = "/tmp/bottleneck-kit-threads-" + ProcessHandle.current().pid() + "-" + number + ".json";
				diagnostic().dumpThreads(remote, ThreadDumpFormat.JSON);
				this.container.copyFileFromContainer(remote, local.toAbsolutePath().toString());
				this.container.execInContainer("rm", "-f", remote);
			}
			ThreadDump dump = ThreadDump.read(local);
			log.info("Thread dump of {}: {} threads in {} ms ({})", this.name, dump.threads().size(),
					(System.nanoTime() - started) / 1_000_000, local);
			return dump;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot take a thread dump of " + this.name, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while taking a thread dump of " + this.name, ex);
		}
	}

	/** Disconnects; the container keeps running. */
	@Override
	public void close() {
		JmxAgent.disconnect(this.connector, this.name);
	}

	private HotSpotDiagnosticMXBean diagnostic() throws IOException {
		if (this.diagnostic == null) {
			this.connector = this.agent.connect();
			this.diagnostic = ManagementFactory.newPlatformMXBeanProxy(this.connector.getMBeanServerConnection(),
					DIAGNOSTIC, HotSpotDiagnosticMXBean.class);
		}
		return this.diagnostic;
	}

	private static Path evidenceDir() {
		return ReportDirectory.subdirectory("threads");
	}

}
