package dev.bottleneckkit.probe;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Statistics;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

/**
 * The CPU time a container has used, read from its cgroup (v2 {@code cpu.stat}, or v1
 * {@code cpuacct.usage}) with a {@code cat} in the container, or, in an image without a
 * shell (distroless), from the Docker engine's statistics of the container: what the
 * service really spent, JIT, GC and Tomcat included. Two readings around a run give the
 * CPU a request costs, the S of the utilization law U = X × S, measured in the same run
 * rather than assumed.
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

	/**
	 * Whether the image has no shell to read the cgroup with: the engine's statistics
	 * then.
	 */
	private volatile boolean withoutShell;

	private ContainerCpu(GenericContainer<?> container) {
		this.container = container;
	}

	/** The CPU probe of a started container. */
	public static ContainerCpu on(GenericContainer<?> container) {
		return new ContainerCpu(container);
	}

	/** CPU time used by everything in the container since it started. */
	public Duration used() {
		if (this.withoutShell) {
			return fromEngine();
		}
		try {
			ExecResult result = this.container.execInContainer(READ);
			if (result.getExitCode() != 0 && result.getStdout().isBlank()) {
				this.withoutShell = true;
				return fromEngine();
			}
			return parse(result.getStdout());
		}
		catch (RuntimeException ex) {
			// No sh in the image: the engine refuses the exec itself.
			this.withoutShell = true;
			return fromEngine();
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
	 * The container's CPU time as the engine's statistics give it
	 * ({@code cpu_stats.cpu_usage.total_usage}, nanoseconds): no process is started in
	 * the container, at the cost of the engine's sampling (about a second).
	 */
	private Duration fromEngine() {
		String id = this.container.getContainerId();
		AtomicReference<Statistics> first = new AtomicReference<>();
		try (var stats = DockerClientFactory.lazyClient().statsCmd(id).withNoStream(true);
				ResultCallback.Adapter<Statistics> callback = new ResultCallback.Adapter<>() {
					@Override
					public void onNext(Statistics reading) {
						first.compareAndSet(null, reading);
					}
				}) {
			stats.exec(callback).awaitCompletion(30, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read the CPU use of " + this.container.getContainerName(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(
					"interrupted while reading the CPU use of " + this.container.getContainerName(), ex);
		}
		Statistics reading = first.get();
		Long total = (reading == null || reading.getCpuStats() == null || reading.getCpuStats().getCpuUsage() == null)
				? null : reading.getCpuStats().getCpuUsage().getTotalUsage();
		if (total == null) {
			throw new IllegalStateException(
					"the Docker engine gave no CPU use for " + this.container.getContainerName());
		}
		return Duration.ofNanos(total);
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
