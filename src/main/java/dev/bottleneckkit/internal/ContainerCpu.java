package dev.bottleneckkit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Statistics;
import org.testcontainers.DockerClientFactory;
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

	private final String id;

	private final String name;

	/**
	 * Whether the image has no shell to read the cgroup with: the engine's statistics
	 * then.
	 */
	private volatile boolean withoutShell;

	private ContainerCpu(String id, String name) {
		this.id = id;
		this.name = name;
	}

	/** The CPU probe of a started container. */
	public static ContainerCpu on(GenericContainer<?> container) {
		return new ContainerCpu(container.getContainerId(), container.getContainerName());
	}

	/** The CPU probe of the running container {@code id}. */
	public static ContainerCpu byId(String id) {
		return new ContainerCpu(id, id.substring(0, Math.min(12, id.length())));
	}

	/** CPU time used by everything in the container since it started. */
	public Duration used() {
		OptionalLong onHost = onHost(this.id);
		if (onHost.isPresent()) {
			return Duration.ofNanos(onHost.getAsLong());
		}
		if (this.withoutShell) {
			return fromEngine();
		}
		try {
			String output = exec();
			if (output.isBlank()) {
				this.withoutShell = true;
				return fromEngine();
			}
			return parse(output);
		}
		catch (RuntimeException ex) {
			// No sh in the image: the engine refuses the exec itself.
			this.withoutShell = true;
			return fromEngine();
		}
	}

	/**
	 * The container's CPU time from its cgroup on this host, when the engine is local (v1
	 * {@code cpuacct.usage} or v2 {@code cpu.stat}, cgroupfs or systemd driver): no
	 * process started in the container, no engine round trip.
	 */
	public static OptionalLong onHost(String id) {
		if (!LOCAL_ENGINE.get()) {
			return OptionalLong.empty();
		}
		for (Path directory : cgroupDirectories(id)) {
			boolean v1 = directory.toString().contains("cpuacct");
			Path path = directory.resolve(v1 ? "cpuacct.usage" : "cpu.stat");
			if (!Files.isReadable(path)) {
				continue;
			}
			try {
				String content = Files.readString(path).trim();
				return OptionalLong.of(parse(v1 ? "v1 " + content : content).toNanos());
			}
			catch (IOException | RuntimeException ex) {
				// a container that just stopped
			}
		}
		return OptionalLong.empty();
	}

	/**
	 * The host's process ids of the container's processes ({@code cgroup.procs} of its
	 * cgroup, v1 or v2), when the engine is local; empty where they cannot be read.
	 */
	public static List<Long> processesOnHost(String id) {
		if (!LOCAL_ENGINE.get()) {
			return List.of();
		}
		for (Path directory : cgroupDirectories(id)) {
			Path procs = directory.resolve("cgroup.procs");
			if (!Files.isReadable(procs)) {
				continue;
			}
			try {
				return Files.readAllLines(procs)
					.stream()
					.map(String::trim)
					.filter((line) -> !line.isEmpty())
					.map(Long::valueOf)
					.toList();
			}
			catch (IOException | RuntimeException ex) {
				// a container that just stopped
			}
		}
		return List.of();
	}

	/**
	 * Where a local engine keeps a container's cgroup: v1 ({@code cpuacct}, alone or
	 * joined with {@code cpu}) or v2, under the cgroupfs or the systemd driver.
	 */
	private static List<Path> cgroupDirectories(String id) {
		return List.of(Path.of("/sys/fs/cgroup/cpuacct/docker", id), Path.of("/sys/fs/cgroup/cpu,cpuacct/docker", id),
				Path.of("/sys/fs/cgroup/cpuacct/system.slice/docker-" + id + ".scope"),
				Path.of("/sys/fs/cgroup/docker", id), Path.of("/sys/fs/cgroup/system.slice/docker-" + id + ".scope"));
	}

	private static final java.util.function.Supplier<Boolean> LOCAL_ENGINE = memoize(DockerHost::engineIsLocal);

	private static <T> java.util.function.Supplier<T> memoize(java.util.function.Supplier<T> supplier) {
		java.util.concurrent.atomic.AtomicReference<T> value = new java.util.concurrent.atomic.AtomicReference<>();
		return () -> {
			T known = value.get();
			if (known == null) {
				known = supplier.get();
				value.compareAndSet(null, known);
			}
			return known;
		};
	}

	/** {@code sh -c 'cat …'} in the container, its standard output. */
	private String exec() {
		var docker = DockerClientFactory.lazyClient();
		String exec = docker.execCreateCmd(this.id)
			.withCmd(READ)
			.withAttachStdout(true)
			.withAttachStderr(true)
			.exec()
			.getId();
		StringBuilder out = new StringBuilder();
		try (ResultCallback.Adapter<com.github.dockerjava.api.model.Frame> callback = new ResultCallback.Adapter<>() {
			@Override
			public void onNext(com.github.dockerjava.api.model.Frame frame) {
				if (frame.getStreamType() == com.github.dockerjava.api.model.StreamType.STDOUT) {
					out.append(new String(frame.getPayload(), java.nio.charset.StandardCharsets.UTF_8));
				}
			}
		}) {
			docker.execStartCmd(exec).exec(callback).awaitCompletion(30, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read the CPU use of " + this.name + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while reading the CPU use of " + this.name, ex);
		}
		return out.toString();
	}

	/**
	 * The container's CPU time as the engine's statistics give it
	 * ({@code cpu_stats.cpu_usage.total_usage}, nanoseconds): no process is started in
	 * the container, at the cost of the engine's sampling (about a second).
	 */
	private Duration fromEngine() {
		AtomicReference<Statistics> first = new AtomicReference<>();
		try (var stats = DockerClientFactory.lazyClient().statsCmd(this.id).withNoStream(true);
				ResultCallback.Adapter<Statistics> callback = new ResultCallback.Adapter<>() {
					@Override
					public void onNext(Statistics reading) {
						first.compareAndSet(null, reading);
					}
				}) {
			stats.exec(callback).awaitCompletion(30, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read the CPU use of " + this.name, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while reading the CPU use of " + this.name, ex);
		}
		return used(first.get(), this.name);
	}

	/**
	 * The CPU time in one of the engine's statistics of the container {@code name}
	 * ({@code cpu_stats.cpu_usage.total_usage}).
	 */
	static Duration used(Statistics reading, String name) {
		Long total = (reading == null || reading.getCpuStats() == null || reading.getCpuStats().getCpuUsage() == null)
				? null : reading.getCpuStats().getCpuUsage().getTotalUsage();
		if (total == null) {
			throw new IllegalStateException("the Docker engine gave no CPU use for " + name);
		}
		return Duration.ofNanos(total);
	}

	/**
	 * cgroup v2: {@code usage_usec N} in {@code cpu.stat}; v1: nanoseconds in
	 * {@code cpuacct.usage}.
	 */
	public static Duration parse(String output) {
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
