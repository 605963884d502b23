package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
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
 * A JVM's just-in-time compilers at work, and the JVM's own CPU: the CPU its compiler
 * threads have used so far, read from the host's {@code /proc} where it shows the JVM's
 * threads, else the time its compilers spent ({@code CompilationMXBean}'s total
 * compilation time over JMX, every compiler thread's summed, which counts a compiler
 * waiting for a core as working); and, over JMX, the CPU time the whole process has used.
 * Two readings give the share of a core the compilers took in between: a JVM whose
 * compilers are quiet runs the code it will run from now on. Every {@code read…} method
 * asks anew.
 */
public final class JitWork implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(JitWork.class);

	private final String name;

	private final MBeanServerConnection server;

	/** The connection to close; empty for this JVM's own. */
	private final Optional<JMXConnector> connector;

	/** The JVM's container, whose processes the host shows; this JVM's own when empty. */
	private final Optional<GenericContainer<?>> container;

	/** A compiler thread as the host names it: C1's or C2's, cut to 15 characters. */
	private static final Pattern COMPILER_THREAD = Pattern.compile("C[12] CompilerThre.*");

	private JitWork(String name, MBeanServerConnection server, Optional<JMXConnector> connector,
			Optional<GenericContainer<?>> container) {
		this.name = name;
		this.server = server;
		this.connector = connector;
		this.container = container;
	}

	/**
	 * The compilers of the JVM in {@code container}, behind {@code agent}, connected now.
	 */
	public static JitWork connect(JmxAgent agent, GenericContainer<?> container) {
		JMXConnector connector = agent.connect();
		try {
			return new JitWork(agent.name(), connector.getMBeanServerConnection(), Optional.of(connector),
					Optional.of(container));
		}
		catch (IOException ex) {
			JmxAgent.disconnect(connector, agent.name());
			throw new UncheckedIOException("JMX at " + agent + " gave no MBean server", ex);
		}
	}

	/** The compilers of the test's own JVM. */
	static JitWork inThisJvm() {
		return new JitWork("this JVM", ManagementFactory.getPlatformMBeanServer(), Optional.empty(), Optional.empty());
	}

	/**
	 * The time the JVM's compilers have spent so far, in milliseconds; empty where the
	 * JVM does not say (no compiler, or no monitoring of its time) or cannot be read.
	 */
	OptionalLong readCompileMillis() {
		try {
			ObjectName compilation = new ObjectName(ManagementFactory.COMPILATION_MXBEAN_NAME);
			if (!Boolean.TRUE.equals(this.server.getAttribute(compilation, "CompilationTimeMonitoringSupported"))) {
				return OptionalLong.empty();
			}
			Object millis = this.server.getAttribute(compilation, "TotalCompilationTime");
			return (millis instanceof Number number) ? OptionalLong.of(number.longValue()) : OptionalLong.empty();
		}
		catch (IOException | javax.management.JMException | RuntimeException ex) {
			log.debug("compile time of {} not read: {}", this.name, ex.toString());
			return OptionalLong.empty();
		}
	}

	/**
	 * The CPU time the JVM's process has used so far, in nanoseconds; empty if unread.
	 */
	OptionalLong readProcessCpuNanos() {
		try {
			Object nanos = this.server.getAttribute(new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME),
					"ProcessCpuTime");
			return (nanos instanceof Number number && number.longValue() >= 0) ? OptionalLong.of(number.longValue())
					: OptionalLong.empty();
		}
		catch (IOException | javax.management.JMException | RuntimeException ex) {
			log.debug("process CPU of {} not read: {}", this.name, ex.toString());
			return OptionalLong.empty();
		}
	}

	/**
	 * The CPU each compiler thread of the JVM has used so far, by its thread id on the
	 * host, from {@code /proc/<pid>/task/<tid>/schedstat} (its first field: time on a
	 * core); empty where the host does not show the JVM's threads (a remote engine). The
	 * JVM's threads are searched for its compilers at most every {@link #RESCAN}: a
	 * reading in between reads their few files alone.
	 */
	Optional<Map<Long, Long>> readCompilerCpuNanos() {
		if (this.compilerTasks.isEmpty() || System.nanoTime() - this.scannedAt > RESCAN.toNanos()) {
			this.compilerTasks = compilerTasks();
			this.scannedAt = System.nanoTime();
		}
		Map<Long, Long> compilers = new LinkedHashMap<>();
		for (Path task : this.compilerTasks) {
			try {
				String[] fields = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
				compilers.put(Long.valueOf(task.getFileName().toString()), Long.parseLong(fields[0]));
			}
			catch (IOException | RuntimeException ex) {
				// a compiler thread that ended meanwhile: the next search leaves it out
				this.scannedAt = 0;
			}
		}
		return compilers.isEmpty() ? Optional.empty() : Optional.of(compilers);
	}

	/**
	 * How often the JVM's threads are searched for its compilers (the JVM may add some).
	 */
	static final Duration RESCAN = Duration.ofSeconds(2);

	/** The compiler threads' {@code /proc} directories the last search found. */
	private volatile List<Path> compilerTasks = List.of();

	private volatile long scannedAt;

	/** The {@code /proc} directories of the JVM's compiler threads on this host. */
	private List<Path> compilerTasks() {
		List<Long> processes = this.container
			.map((running) -> (running.getContainerId() == null) ? List.<Long>of()
					: ContainerCpu.processesOnHost(running.getContainerId()))
			.orElse(List.of(ProcessHandle.current().pid()));
		List<Path> compilers = new ArrayList<>();
		for (long process : processes) {
			try (var tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(process), "task"))) {
				for (Path task : tasks) {
					try {
						if (COMPILER_THREAD.matcher(Files.readString(task.resolve("comm")).trim()).matches()) {
							compilers.add(task);
						}
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
		return List.copyOf(compilers);
	}

	/**
	 * One reading of the compilers, now: their threads' CPU where the host shows them,
	 * else their time over JMX.
	 */
	public Reading readCompilers() {
		long at = System.nanoTime();
		Optional<Map<Long, Long>> cpu = readCompilerCpuNanos();
		return new Reading(at, cpu, cpu.isPresent() ? OptionalLong.empty() : readCompileMillis(), OptionalLong.empty());
	}

	/** One reading of the compilers and the process's CPU, now. */
	public Reading read() {
		return new Reading(System.nanoTime(), readCompilerCpuNanos(), readCompileMillis(), readProcessCpuNanos());
	}

	/** Disconnects; the JVM keeps running. */
	@Override
	public void close() {
		this.connector.ifPresent((open) -> JmxAgent.disconnect(open, this.name));
	}

	/**
	 * The compilers' time and the process's CPU at one instant.
	 *
	 * @param at {@code System.nanoTime()} of the reading
	 * @param compilerCpu each compiler thread's CPU so far, where the host shows them
	 * @param compileMillis the compilers' time so far, when read over JMX
	 * @param cpuNanos the process's CPU so far, when read
	 */
	public record Reading(long at, Optional<Map<Long, Long>> compilerCpu, OptionalLong compileMillis,
			OptionalLong cpuNanos) {

		/** A reading of nothing, at {@code at}: a JVM the kit cannot read. */
		public static Reading none(long at) {
			return new Reading(at, Optional.empty(), OptionalLong.empty(), OptionalLong.empty());
		}

		/**
		 * The share of a core the compilers took between {@code before} and this reading
		 * (0.5 for half a core): their threads' CPU where both readings have it (a thread
		 * that began between them counts from 0), else their time; empty where neither
		 * did or no time passed.
		 */
		public OptionalDouble compilerCoresSince(Reading before) {
			if (this.at <= before.at) {
				return OptionalDouble.empty();
			}
			double seconds = (this.at - before.at) / 1e9;
			if (this.compilerCpu.isPresent() && before.compilerCpu.isPresent()) {
				long nanos = 0;
				for (Map.Entry<Long, Long> thread : this.compilerCpu.get().entrySet()) {
					nanos += Math.max(0,
							thread.getValue() - before.compilerCpu.get().getOrDefault(thread.getKey(), 0L));
				}
				return OptionalDouble.of(nanos / 1e9 / seconds);
			}
			if (this.compileMillis.isEmpty() || before.compileMillis.isEmpty()) {
				return OptionalDouble.empty();
			}
			return OptionalDouble
				.of(Math.max(0, this.compileMillis.getAsLong() - before.compileMillis.getAsLong()) / 1000.0 / seconds);
		}

		/**
		 * The process's CPU between {@code before} and this reading, over
		 * {@code requests}: what a request cost, the compilers' work included; empty
		 * where either did not read it or there were no requests.
		 */
		public Optional<Duration> cpuPerRequestSince(Reading before, long requests) {
			if (this.cpuNanos.isEmpty() || before.cpuNanos.isEmpty() || requests <= 0) {
				return Optional.empty();
			}
			return Optional
				.of(Duration.ofNanos(Math.max(0, this.cpuNanos.getAsLong() - before.cpuNanos.getAsLong()) / requests));
		}

	}

}
