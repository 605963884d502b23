package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.ContainerCpu;
import dev.bottleneckkit.internal.JmxAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * A JVM's carrier threads, the platform threads its virtual threads run on: how many
 * there are, and the time they have taken so far, on a core or waiting for one. Read over
 * the JVM's JMX agent and, where the host shows the JVM's threads, from {@code /proc}.
 * Every {@code read…} method asks the JVM or the host anew.
 */
public final class Carriers implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(Carriers.class);

	/**
	 * A carrier thread as the JVM names it: a {@code ForkJoinPool}'s worker other than
	 * the common pool's, which is what the virtual-thread scheduler's are named.
	 */
	private static final Pattern CARRIER_NAME = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");

	/**
	 * A carrier thread as the host names it: its Java name cut to 15 characters, so that
	 * the common pool's {@code ForkJoinPool.commonPool-…} does not match.
	 */
	private static final Pattern HOST_CARRIER_NAME = Pattern.compile("ForkJoinPool-\\d+(-.*)?");

	private final String name;

	/** The JVM's MBean server, remote or this JVM's own. */
	private final MBeanServerConnection server;

	/** The connection to close; empty for this JVM's own. */
	private final Optional<JMXConnector> connector;

	/**
	 * The JVM's process ids on this host: none where the host does not show them (a
	 * remote engine's container).
	 */
	private final Supplier<List<Long>> processes;

	/** Where {@link #readTimeNanos()} reads, decided at its first reading. */
	private volatile Source source = Source.UNDECIDED;

	private Carriers(String name, MBeanServerConnection server, Optional<JMXConnector> connector,
			Supplier<List<Long>> processes) {
		this.name = name;
		this.server = server;
		this.connector = connector;
		this.processes = processes;
	}

	/** The carriers of the JVM in {@code container}, through its JMX agent. */
	public static Carriers connect(JmxAgent agent, GenericContainer<?> container) {
		return connect(agent, () -> (container.getContainerId() == null) ? List.of()
				: ContainerCpu.processesOnHost(container.getContainerId()));
	}

	/**
	 * The carriers of the JVM behind {@code agent}, whose process ids on this host
	 * {@code processes} gives (none for a remote engine's container).
	 */
	public static Carriers connect(JmxAgent agent, Supplier<List<Long>> processes) {
		JMXConnector connector = agent.connect();
		try {
			return new Carriers(agent.name(), connector.getMBeanServerConnection(), Optional.of(connector), processes);
		}
		catch (IOException ex) {
			JmxAgent.disconnect(connector, agent.name());
			throw new java.io.UncheckedIOException("JMX at " + agent + " gave no MBean server", ex);
		}
	}

	/** The carriers of the test's own JVM. */
	static Carriers inThisJvm() {
		return new Carriers("this JVM", ManagementFactory.getPlatformMBeanServer(), Optional.empty(),
				() -> List.of(ProcessHandle.current().pid()));
	}

	/**
	 * How many carriers the JVM has: its virtual-thread scheduler's parallelism
	 * ({@code jdk.management:type=VirtualThreadScheduler} on JDK 24+; on JDK 21 the
	 * system property {@code jdk.virtualThreadScheduler.parallelism}, else the processors
	 * the JVM sees). Empty when it cannot be read.
	 */
	public OptionalInt readCount() {
		try {
			try {
				Object parallelism = this.server
					.getAttribute(new ObjectName("jdk.management:type=VirtualThreadScheduler"), "Parallelism");
				if (parallelism instanceof Number number && number.intValue() > 0) {
					return OptionalInt.of(number.intValue());
				}
			}
			catch (javax.management.InstanceNotFoundException | javax.management.AttributeNotFoundException ex) {
				// JDK 21-23: no scheduler MXBean
			}
			java.lang.management.RuntimeMXBean runtime = ManagementFactory.newPlatformMXBeanProxy(this.server,
					ManagementFactory.RUNTIME_MXBEAN_NAME, java.lang.management.RuntimeMXBean.class);
			String property = runtime.getSystemProperties().get("jdk.virtualThreadScheduler.parallelism");
			if (property != null && property.trim().matches("\\d+")) {
				return OptionalInt.of(Integer.parseInt(property.trim()));
			}
			java.lang.management.OperatingSystemMXBean os = ManagementFactory.newPlatformMXBeanProxy(this.server,
					ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME, java.lang.management.OperatingSystemMXBean.class);
			return OptionalInt.of(os.getAvailableProcessors());
		}
		catch (IOException | javax.management.JMException | RuntimeException ex) {
			log.debug("carriers of {} not read: {}", this.name, ex.toString());
			return OptionalInt.empty();
		}
	}

	/**
	 * The CPU time each carrier thread has used so far, by thread id, over JMX. A virtual
	 * thread's CPU is its carrier's while it is mounted, so two readings give what ran on
	 * carriers in between: the requests' own work, not the JVM's compilers, collectors or
	 * Tomcat's poller. Empty when it cannot be read.
	 */
	Optional<Map<Long, Long>> readCpuNanos() {
		try {
			com.sun.management.ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(this.server,
					ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
			if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
				return Optional.empty();
			}
			List<Long> carriers = new ArrayList<>();
			for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
				if (info != null && CARRIER_NAME.matcher(info.getThreadName()).matches()) {
					carriers.add(info.getThreadId());
				}
			}
			long[] ids = carriers.stream().mapToLong(Long::longValue).toArray();
			long[] nanos = threads.getThreadCpuTime(ids);
			Map<Long, Long> cpu = new LinkedHashMap<>();
			for (int i = 0; i < ids.length; i++) {
				if (nanos[i] >= 0) {
					cpu.put(ids[i], nanos[i]);
				}
			}
			return Optional.of(cpu);
		}
		catch (IOException | RuntimeException ex) {
			log.debug("carriers' CPU of {} not read: {}", this.name, ex.toString());
			return Optional.empty();
		}
	}

	/**
	 * The time each carrier thread has held a core or waited in the kernel's run queue
	 * for one so far, by its thread id on the host, from
	 * {@code /proc/<pid>/task/<tid>/schedstat} (its first two fields); else, where the
	 * JVM's threads cannot be read on this host (a remote engine), their CPU time
	 * ({@link #readCpuNanos()}). A carrier is taken from the moment its virtual thread is
	 * runnable: on a machine whose cores are busy elsewhere it waits for one, and that
	 * wait is carrier time a request costs as much as its CPU. One source for the probe's
	 * life, decided at the first reading, so that two readings always compare.
	 */
	public Optional<Map<Long, Long>> readTimeNanos() {
		if (this.source != Source.JMX) {
			Map<Long, Long> onHost = schedstat();
			if (!onHost.isEmpty() || this.source == Source.HOST) {
				this.source = Source.HOST;
				return Optional.of(onHost);
			}
			this.source = Source.JMX;
		}
		return readCpuNanos();
	}

	/** Where {@link #readTimeNanos()} reads the carriers. */
	private enum Source {

		/** Not read yet. */
		UNDECIDED,
		/** The host's {@code /proc}: on a core and waiting for one. */
		HOST,
		/** The JVM's thread CPU times over JMX. */
		JMX

	}

	/** On a core and waiting for one, by carrier thread, from the host's /proc. */
	private Map<Long, Long> schedstat() {
		Map<Long, Long> time = new LinkedHashMap<>();
		for (long process : this.processes.get()) {
			try (var tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(process), "task"))) {
				for (Path task : tasks) {
					try {
						String comm = Files.readString(task.resolve("comm")).trim();
						if (!HOST_CARRIER_NAME.matcher(comm).matches()) {
							continue;
						}
						onCoreAndWaiting(Files.readString(task.resolve("schedstat")))
							.ifPresent((nanos) -> time.put(Long.valueOf(task.getFileName().toString()), nanos));
					}
					catch (IOException | RuntimeException ex) {
						// a thread that ended meanwhile
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				// a process that ended, or a /proc this JVM cannot read
			}
		}
		return time;
	}

	/**
	 * {@code schedstat}'s first two fields, time on a core and time runnable waiting for
	 * one (ns), summed; empty for anything else.
	 */
	static OptionalLong onCoreAndWaiting(String schedstat) {
		String[] fields = schedstat.trim().split("\\s+");
		if (fields.length < 2 || !fields[0].matches("\\d+") || !fields[1].matches("\\d+")) {
			return OptionalLong.empty();
		}
		return OptionalLong.of(Long.parseLong(fields[0]) + Long.parseLong(fields[1]));
	}

	/**
	 * The carriers' cores on average between two readings {@code seconds} apart: a
	 * carrier that began after the first counts from 0.
	 */
	public static double cores(Map<Long, Long> before, Map<Long, Long> after, double seconds) {
		long nanos = 0;
		for (Map.Entry<Long, Long> carrier : after.entrySet()) {
			nanos += Math.max(0, carrier.getValue() - before.getOrDefault(carrier.getKey(), 0L));
		}
		return (seconds > 0) ? nanos / 1e9 / seconds : 0;
	}

	/** Disconnects; the JVM keeps running. */
	@Override
	public void close() {
		this.connector.ifPresent((open) -> JmxAgent.disconnect(open, this.name));
	}

}
