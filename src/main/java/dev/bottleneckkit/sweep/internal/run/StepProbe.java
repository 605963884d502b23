package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;

/**
 * One reading a sweep's step takes beside its load: begun as the step begins, ended as it
 * ends, what it read handed on into {@link ProbeReadings}. A probe that can no longer see
 * throws {@link Blind} with the line that says so; the sweep goes on without it. One list
 * ({@link Probes#open}) says which probes a service gets.
 */
public interface StepProbe extends AutoCloseable {

	/** Begins reading a step whose load is about to start, as {@code plan} expects it. */
	void begin(Plan plan);

	/** Ends reading the step: what it read over {@code window}, into {@code readings}. */
	void end(Window window, ProbeReadings.Builder readings);

	/** Stops what the probe runs; the service keeps running. */
	@Override
	default void close() {
	}

	/**
	 * What a step expects of its load: its warm-up, and how long its window is likely to
	 * be.
	 */
	record Plan(Duration warmUp, Duration likelyWindow) {

	}

	/**
	 * The step's times ({@code System.nanoTime()}): from its start through its load's
	 * window to its end.
	 */
	record Window(long wallStart, long windowStart, long windowEnd, long wallEnd) {

		/** How long the step took, warm-up included. */
		Duration wall() {
			return Duration.ofNanos(this.wallEnd - this.wallStart);
		}

	}

	/** A probe that can no longer see: the line that says so, naming what to change. */
	final class Blind extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Blind(String line) {
			super(line);
		}

		/** {@code what}: and the root cause's message. */
		static Blind because(String what, Throwable failure) {
			return new Blind(String.format(what, rootMessage(failure)));
		}

		public static String rootMessage(Throwable failure) {
			Throwable root = failure;
			while (root.getCause() != null && root.getCause() != root) {
				root = root.getCause();
			}
			return String.valueOf(root.getMessage());
		}

	}

}
