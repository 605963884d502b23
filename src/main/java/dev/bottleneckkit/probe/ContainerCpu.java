package dev.bottleneckkit.probe;

import java.io.IOException;
import java.time.Duration;

import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

/**
 * The CPU time a container has used, read from its cgroup (v2 {@code cpu.stat}, or v1
 * {@code cpuacct.usage}) with a {@code cat} in the container: what the service really
 * spent, JIT, GC and Tomcat included. Two readings around a run give the CPU a request
 * costs, the S of the utilization law U = X × S, measured in the same run rather than
 * assumed.
 *
 * <pre>{@code
 * ContainerCpu cpu = ContainerCpu.on(service);              // after start
 * Duration before = cpu.used();
 * LoadResult result = load.run(service.uri("/work/cpu"));
 * Duration used = cpu.used().minus(before);
 * }</pre>
 */
public final class ContainerCpu {

	private static final String[] READ = { "sh", "-c",
			"cat /sys/fs/cgroup/cpu.stat 2>/dev/null || echo \"v1 $(cat /sys/fs/cgroup/cpuacct/cpuacct.usage)\"" };

	private final GenericContainer<?> container;

	private ContainerCpu(GenericContainer<?> container) {
		this.container = container;
	}

	/**
	 * The CPU probe of a started container whose image has {@code sh} and {@code cat}.
	 */
	public static ContainerCpu on(GenericContainer<?> container) {
		return new ContainerCpu(container);
	}

	/** CPU time used by everything in the container since it started. */
	public Duration used() {
		try {
			ExecResult result = this.container.execInContainer(READ);
			return parse(result.getStdout());
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"cannot read the CPU use of " + this.container.getContainerName() + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(
					"interrupted while reading the CPU use of " + this.container.getContainerName(), ex);
		}
	}

	/**
	 * cgroup v2: {@code usage_usec N} in {@code cpu.stat}; v1: nanoseconds in
	 * {@code cpuacct.usage}.
	 */
	static Duration parse(String output) {
		for (String line : output.split("\n")) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length == 2 && fields[0].equals("usage_usec")) {
				return Duration.ofNanos(Long.parseLong(fields[1]) * 1000);
			}
			if (fields.length == 2 && fields[0].equals("v1") && fields[1].matches("\\d+")) {
				return Duration.ofNanos(Long.parseLong(fields[1]));
			}
		}
		throw new IllegalStateException(
				"no CPU use in the container's cgroup (cpu.stat or cpuacct.usage): '" + output.trim() + "'");
	}

}
