package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.read.JitWork;

/**
 * The share of a core the service's JIT compilers took over a step: read every
 * {@link #EVERY} and over the load's window where the readings reach it, else over the
 * whole step. A step whose compilers were busy measured a JVM still warming up
 * ({@link Step#warming()}).
 */
final class JitProbe implements StepProbe {

	/** How often the compilers' time is read during a step. */
	static final Duration EVERY = Duration.ofMillis(200);

	private final JitWork jit;

	/** The step's readings, from its begin to its end. */
	private final List<JitWork.Reading> readings = new CopyOnWriteArrayList<>();

	/** The step's reader, from its begin to its end. */
	private Optional<Thread> reading = Optional.empty();

	private volatile boolean running;

	JitProbe(JitWork jit) {
		this.jit = jit;
	}

	@Override
	public void begin(Plan plan) {
		this.readings.clear();
		this.readings.add(this.jit.readCompilers());
		this.running = true;
		this.reading = Optional.of(Thread.ofVirtual().name("bottleneck-kit-jit").start(() -> {
			while (this.running) {
				LockSupport.parkNanos(EVERY.toNanos());
				if (this.running) {
					this.readings.add(this.jit.readCompilers());
				}
			}
		}));
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		stop();
		JitWork.Reading last = this.jit.readCompilers();
		this.readings.add(last);
		OptionalDouble inTheWindow = overTheWindow(this.readings, window.windowStart(), window.windowEnd());
		readings.compiler(inTheWindow.isPresent() ? inTheWindow : last.compilerCoresSince(this.readings.get(0)));
	}

	/**
	 * The compilers' cores between the first and the last of {@code readings} inside
	 * {@code from} to {@code to}; empty when fewer than two were, or they span less than
	 * half of it.
	 */
	static OptionalDouble overTheWindow(List<JitWork.Reading> readings, long from, long to) {
		List<JitWork.Reading> inside = readings.stream()
			.filter((reading) -> reading.at() >= from && reading.at() <= to)
			.toList();
		if (inside.size() < 2) {
			return OptionalDouble.empty();
		}
		JitWork.Reading first = inside.get(0);
		JitWork.Reading last = inside.get(inside.size() - 1);
		return (last.at() - first.at() < (to - from) / 2) ? OptionalDouble.empty() : last.compilerCoresSince(first);
	}

	private void stop() {
		this.running = false;
		this.reading.ifPresent((thread) -> {
			LockSupport.unpark(thread);
			try {
				thread.join(Duration.ofSeconds(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		this.reading = Optional.empty();
	}

	@Override
	public void close() {
		stop();
		this.jit.close();
	}

}
