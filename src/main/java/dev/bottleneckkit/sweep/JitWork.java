package dev.bottleneckkit.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.OptionalLong;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.JmxAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM's just-in-time compilers at work, and the JVM's own CPU, read over its JMX agent:
 * the time its compilers have spent so far ({@code CompilationMXBean}'s total compilation
 * time, every compiler thread's summed), and the CPU time the whole process has used. Two
 * readings give the share of a core the compilers took in between: a JVM whose compilers
 * are quiet runs the code it will run from now on. Every {@code read…} method asks the
 * JVM anew.
 */
final class JitWork implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(JitWork.class);

	private final String name;

	private final MBeanServerConnection server;

	/** The connection to close; empty for this JVM's own. */
	private final Optional<JMXConnector> connector;

	private JitWork(String name, MBeanServerConnection server, Optional<JMXConnector> connector) {
		this.name = name;
		this.server = server;
		this.connector = connector;
	}

	/** The compilers of the JVM behind {@code agent}, connected now. */
	static JitWork connect(JmxAgent agent) {
		JMXConnector connector = agent.connect();
		try {
			return new JitWork(agent.name(), connector.getMBeanServerConnection(), Optional.of(connector));
		}
		catch (IOException ex) {
			JmxAgent.disconnect(connector, agent.name());
			throw new UncheckedIOException("JMX at " + agent + " gave no MBean server", ex);
		}
	}

	/** The compilers of the test's own JVM. */
	static JitWork inThisJvm() {
		return new JitWork("this JVM", ManagementFactory.getPlatformMBeanServer(), Optional.empty());
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

	/** One reading of both, now. */
	Reading read() {
		return new Reading(System.nanoTime(), readCompileMillis(), readProcessCpuNanos());
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
	 * @param compileMillis the compilers' time so far, when read
	 * @param cpuNanos the process's CPU so far, when read
	 */
	record Reading(long at, OptionalLong compileMillis, OptionalLong cpuNanos) {

		/**
		 * The share of a core the compilers took between {@code before} and this reading
		 * (0.5 for half a core); empty where either did not read them or no time passed.
		 */
		java.util.OptionalDouble compilerCoresSince(Reading before) {
			if (this.compileMillis.isEmpty() || before.compileMillis.isEmpty() || this.at <= before.at) {
				return java.util.OptionalDouble.empty();
			}
			double seconds = (this.at - before.at) / 1e9;
			return java.util.OptionalDouble
				.of(Math.max(0, this.compileMillis.getAsLong() - before.compileMillis.getAsLong()) / 1000.0 / seconds);
		}

		/**
		 * The process's CPU between {@code before} and this reading, over
		 * {@code requests}: what a request cost, the compilers' work included; empty
		 * where either did not read it or there were no requests.
		 */
		Optional<java.time.Duration> cpuPerRequestSince(Reading before, long requests) {
			if (this.cpuNanos.isEmpty() || before.cpuNanos.isEmpty() || requests <= 0) {
				return Optional.empty();
			}
			return Optional.of(java.time.Duration
				.ofNanos(Math.max(0, this.cpuNanos.getAsLong() - before.cpuNanos.getAsLong()) / requests));
		}

	}

}
