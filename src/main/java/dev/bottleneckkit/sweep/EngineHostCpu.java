package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.internal.DockerHost;
import dev.bottleneckkit.internal.KitClasses;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;

/**
 * The CPU of a remote engine's host, read where the containers run: a small kit container
 * with the host's cgroups mounted read-only reads {@code /proc/stat} and each container's
 * cgroup ten times a second ({@link HostCpuCounter}) and streams its lines back through
 * the engine. The test then splits the engine host's CPU as it does a local one's, at the
 * same moments, with no process started in the service and no engine round trip per
 * reading.
 *
 * <p>
 * An engine that refuses the mount (a hosted engine) or whose cgroups the reader does not
 * know gives no reading: {@link #start} says so, and each container's CPU is read through
 * the engine instead.
 */
final class EngineHostCpu implements AutoCloseable {

	/** Between two readings. */
	static final Duration INTERVAL = Duration.ofMillis(100);

	/** Where the engine host's cgroups are mounted in the reader. */
	private static final String CGROUPS = "/host/cgroup";

	private final GenericContainer<?> reader;

	/** The latest line and the {@code System.nanoTime()} it arrived. */
	private final AtomicReference<Latest> latest = new AtomicReference<>();

	private EngineHostCpu(GenericContainer<?> reader) {
		this.reader = reader;
	}

	/**
	 * The reader started on the engine, once its first line showed the machine and
	 * {@code service}'s container; else the reason it cannot read there.
	 */
	static Reader start(String serviceId) {
		GenericContainer<?> reader = KitContainers.labelled(new GenericContainer<>(KitImages.java(JavaRuntime.JAVA_21)))
			.withLabel(DockerHost.NAME_LABEL, "CPU reader");
		String classPath = KitClasses.copyInto(reader);
		// A bind of the engine host's own path, set on the container itself:
		// Testcontainers' file-system binds first probe the engine with an image of their
		// own.
		reader.withCreateContainerCmdModifier((cmd) -> cmd.withUser("65534:65534")
			.withHostConfig(
					cmd.getHostConfig().withBinds(new Bind("/sys/fs/cgroup", new Volume(CGROUPS), AccessMode.ro)))
			.withEntrypoint("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx24m", "-Xss256k",
					"-XX:-UsePerfData", "-cp", classPath, HostCpuCounter.class.getName(),
					Long.toString(INTERVAL.toMillis()), CGROUPS));
		EngineHostCpu cpu = new EngineHostCpu(reader);
		reader.withLogConsumer(cpu::onLine);
		try {
			reader.start();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (System.nanoTime() < deadline) {
				Latest seen = cpu.latest.get();
				if (seen != null && seen.line().machineBusyNanos().isPresent()
						&& seen.line().containers().containsKey(serviceId)) {
					return new Reader(Optional.of(cpu), "");
				}
				Thread.sleep(INTERVAL.toMillis());
			}
			Latest seen = cpu.latest.get();
			cpu.close();
			return new Reader(Optional.empty(),
					(seen == null) ? "the reader printed nothing in 10 s"
							: "the reader found " + seen.line().containers().size()
									+ " containers' cgroups on the engine's host, not the service's");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			cpu.close();
			return new Reader(Optional.empty(), "interrupted");
		}
		catch (RuntimeException ex) {
			cpu.close();
			return new Reader(Optional.empty(), "the reader did not start: " + ex.getMessage());
		}
	}

	/** The reader, or why there is none. */
	record Reader(Optional<EngineHostCpu> cpu, String whyNot) {

	}

	/** The latest line the reader sent and when it arrived; empty before the first. */
	Optional<Latest> latest() {
		return Optional.ofNullable(this.latest.get());
	}

	/** A line and the {@code System.nanoTime()} it arrived. */
	record Latest(long at, HostCpuCounter.Line line) {

	}

	private void onLine(OutputFrame frame) {
		String text = frame.getUtf8StringWithoutLineEnding();
		if (text == null) {
			return;
		}
		long at = System.nanoTime();
		for (String line : text.split("\n")) {
			HostCpuCounter.parse(line.trim()).ifPresent((parsed) -> this.latest.set(new Latest(at, parsed)));
		}
	}

	/** Stops the reader. */
	@Override
	public void close() {
		this.reader.stop();
	}

}
