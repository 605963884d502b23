package dev.bottleneckkit.sweep.internal.read;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.run.Readings;

/**
 * A step's CPU read every {@link #EVERY} on a thread of its own, so that its window,
 * whose end is known only once the load has ended, can be read between readings inside
 * it: the window's CPU and the window's throughput then come from the same seconds.
 * Readings are of what the step's first reading found ({@link MachineCpu#readAgain()}), a
 * few files of this host, or the latest line of the reader on a remote engine's host;
 * without that reader there are none, and the step's CPU is read over the whole step.
 */
public final class CpuSamples implements AutoCloseable {

	/**
	 * How often the CPU is read: a window of at least 1 s is read between readings at
	 * most this far inside its edges.
	 */
	static final Duration EVERY = Duration.ofMillis(100);

	private final MachineCpu cpu;

	private final List<MachineCpu.Reading> readings = new CopyOnWriteArrayList<>();

	private final Thread thread;

	private volatile boolean running = true;

	private CpuSamples(MachineCpu cpu) {
		this.cpu = cpu;
		this.thread = Thread.ofVirtual().name("bottleneck-kit-cpu-samples").start(this::sample);
	}

	/** Reads {@code cpu} every {@link #EVERY} from now until closed. */
	public static CpuSamples of(MachineCpu cpu) {
		return new CpuSamples(cpu);
	}

	private void sample() {
		while (this.running) {
			Optional<MachineCpu.Reading> reading = this.cpu.readAgain();
			if (reading.isEmpty()) {
				return;
			}
			this.readings.add(reading.get());
			LockSupport.parkNanos(EVERY.toNanos());
		}
	}

	/**
	 * Cores used between the first and the last reading taken within {@code from} to
	 * {@code to} ({@code System.nanoTime()}); empty as {@link #edges} says.
	 */
	public Optional<Step.Cpu> within(long from, long to) {
		return edges(this.readings, from, to).map((edges) -> this.cpu.between(edges.get(0), edges.get(1)));
	}

	/**
	 * The first and the last of {@code readings} taken within {@code from} to {@code to};
	 * empty when fewer than two were, or they span less than half of it.
	 */
	static Optional<List<MachineCpu.Reading>> edges(List<MachineCpu.Reading> readings, long from, long to) {
		List<MachineCpu.Reading> inside = readings.stream()
			.filter((reading) -> reading.at() >= from && reading.at() <= to)
			.toList();
		if (inside.size() < 2) {
			return Optional.empty();
		}
		MachineCpu.Reading first = inside.get(0);
		MachineCpu.Reading last = inside.get(inside.size() - 1);
		return (last.at() - first.at() < (to - from) / 2) ? Optional.empty() : Optional.of(List.of(first, last));
	}

	@Override
	public void close() {
		this.running = false;
		LockSupport.unpark(this.thread);
		try {
			this.thread.join(Duration.ofSeconds(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
