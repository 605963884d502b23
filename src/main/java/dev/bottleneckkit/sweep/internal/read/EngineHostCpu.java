package dev.bottleneckkit.sweep.internal.read;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
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
 * One reader serves every sweep of the JVM on that engine. An engine that refuses the
 * mount (a hosted engine) or whose cgroups the reader does not know gives no reading:
 * {@link #reading} says so, and each container's CPU is read through the engine instead.
 */
final class EngineHostCpu {

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
	 * The readers started, one an engine for the JVM's life: a service's start needs no
	 * reader of its own, since one reads every container of the engine's host.
	 */
	private static final Map<String, Reader> READERS = new ConcurrentHashMap<>();

	/**
	 * The reader on the engine at {@code engine}, started by the first call and stopped
	 * as the JVM exits (a JVM killed leaves it to the next run's reaper), once its lines
	 * show the machine and {@code service}'s container; else the reason it cannot read
	 * there.
	 */
	static Reader reading(String engine, String serviceId) {
		Reader reader = READERS.computeIfAbsent(engine, (address) -> start());
		if (reader.cpu().isEmpty()) {
			return reader;
		}
		return reader.cpu().get().sees(serviceId);
	}

	/** This reader, once a line that arrived from now on shows {@code serviceId}. */
	private Reader sees(String serviceId) {
		long from = System.nanoTime();
		long deadline = from + TimeUnit.SECONDS.toNanos(10);
		try {
			while (System.nanoTime() < deadline) {
				Latest seen = this.latest.get();
				if (seen != null && seen.at() >= from && seen.line().containers().containsKey(serviceId)) {
					return new Reader(Optional.of(this), "");
				}
				Thread.sleep(INTERVAL.toMillis());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Reader(Optional.empty(), "interrupted");
		}
		Latest seen = this.latest.get();
		return new Reader(Optional.empty(),
				(seen == null || seen.at() < from) ? "the reader sent nothing for 10 s"
						: "the reader found " + seen.line().containers().size()
								+ " containers' cgroups on the engine's host, not the service's");
	}

	/**
	 * The reader started on the engine, once its first line showed the machine; else the
	 * reason it cannot read there.
	 */
	private static Reader start() {
		GenericContainer<?> reader = KitReader.running("CPU reader", HostCpuCounter.class,
				Long.toString(INTERVAL.toMillis()), CGROUPS);
		// A bind of the engine host's own path, set on the container itself:
		// Testcontainers' file-system binds first probe the engine with an image of their
		// own.
		reader.withCreateContainerCmdModifier((cmd) -> cmd.withHostConfig(
				cmd.getHostConfig().withBinds(new Bind("/sys/fs/cgroup", new Volume(CGROUPS), AccessMode.ro))));
		EngineHostCpu cpu = new EngineHostCpu(reader);
		reader.withLogConsumer(cpu::onLine);
		try {
			reader.start();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (System.nanoTime() < deadline) {
				Latest seen = cpu.latest.get();
				if (seen != null && seen.line().machineBusyNanos().isPresent()) {
					Runtime.getRuntime().addShutdownHook(new Thread(cpu::close, "bottleneck-kit CPU reader's stop"));
					return new Reader(Optional.of(cpu), "");
				}
				Thread.sleep(INTERVAL.toMillis());
			}
			cpu.close();
			return new Reader(Optional.empty(), (cpu.latest.get() == null) ? "the reader printed nothing in 10 s"
					: "the reader found no /proc/stat on the engine's host");
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
	void close() {
		try {
			this.reader.stop();
		}
		catch (RuntimeException ex) {
			// an engine gone as the JVM exits: the next run's reaper removes the reader
		}
	}

}
