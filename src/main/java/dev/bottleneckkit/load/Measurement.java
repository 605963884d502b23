package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Recorder;

/**
 * The figures of one load run, recorded from many threads: latencies of requests completed inside the
 * measurement window (HdrHistogram, microseconds), errors by kind, and per-second counts over the whole
 * run. Shared by the closed- and open-loop drivers.
 */
final class Measurement {

	private final Recorder recorder = new Recorder(3);

	private final Recorder failureRecorder = new Recorder(3);

	private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

	private final LongAdder succeededInWindow = new LongAdder();

	private final int maxSeconds;

	private final AtomicLongArray succeededPerSecond;

	private final AtomicLongArray failedPerSecond;

	private final AtomicLongArray latencyMicrosPerSecond;

	final long startNanos;

	final long windowStartNanos;

	private volatile long windowEndNanos;

	/** Closed-loop users that reported their cycles, those with fewer than two answers, and the sum of their rates. */
	private int users;

	private int usersWithoutCycles;

	private double cycleRate;

	/** The busiest load thread's share of its wall time on the CPU, 0 to 1. */
	private double generatorBusy;

	Measurement(Duration warmUp, Duration window, Duration requestTimeout) {
		this.maxSeconds = (int) (warmUp.plus(window).plus(requestTimeout).toSeconds() + 2);
		this.succeededPerSecond = new AtomicLongArray(this.maxSeconds);
		this.failedPerSecond = new AtomicLongArray(this.maxSeconds);
		this.latencyMicrosPerSecond = new AtomicLongArray(this.maxSeconds);
		this.startNanos = System.nanoTime();
		this.windowStartNanos = this.startNanos + warmUp.toNanos();
		this.windowEndNanos = this.windowStartNanos + window.toNanos();
	}

	long windowEndNanos() {
		return this.windowEndNanos;
	}

	/** Ends the window early (count-bounded runs). */
	void endWindowAt(long nanos) {
		this.windowEndNanos = Math.min(this.windowEndNanos, nanos);
	}

	/**
	 * Records a request that was meant to start at {@code startNanos} and ended at {@code doneNanos}; true when it
	 * ended inside the measurement window.
	 */
	boolean record(long startNanos, long doneNanos, String failure) {
		int second = secondOf(doneNanos);
		long micros = (doneNanos - startNanos) / 1000;
		if (failure == null) {
			this.succeededPerSecond.incrementAndGet(second);
		}
		else {
			this.failedPerSecond.incrementAndGet(second);
		}
		this.latencyMicrosPerSecond.addAndGet(second, micros);
		if (doneNanos < this.windowStartNanos || doneNanos > this.windowEndNanos) {
			return false;
		}
		if (failure == null) {
			this.recorder.recordValue(Math.max(1, micros));
			this.succeededInWindow.increment();
		}
		else {
			this.failureRecorder.recordValue(Math.max(1, micros));
			this.errors.computeIfAbsent(failure, (kind) -> new LongAdder()).increment();
		}
		return true;
	}

	/**
	 * A closed-loop user's requests that ended in the window: {@code ended} of them, the first at
	 * {@code firstNanos}, the last at {@code lastNanos}. Between its first and last answer the user went through
	 * {@code ended - 1} whole cycles, so its rate is (ended - 1) / (last - first) wherever the window's edges fell.
	 */
	synchronized void userCycles(long ended, long firstNanos, long lastNanos) {
		this.users++;
		if (ended >= 2 && lastNanos > firstNanos) {
			this.cycleRate += (ended - 1) / ((lastNanos - firstNanos) / 1e9);
		}
		else {
			this.usersWithoutCycles++;
		}
	}

	/**
	 * Requests per second that ended, by each user's own cycles (a closed loop), or NaN when some user had fewer
	 * than two answers in the window (a route slower than half the window), where only counting is left.
	 */
	synchronized double cycleRate() {
		return (this.users == 0 || this.usersWithoutCycles > 0) ? Double.NaN : this.cycleRate;
	}

	/** Counts a request that was never sent (e.g. the open loop's outstanding bound), at {@code nanos}. */
	void recordNotSent(long nanos, String kind) {
		this.failedPerSecond.incrementAndGet(secondOf(nanos));
		if (nanos >= this.windowStartNanos && nanos <= this.windowEndNanos) {
			this.errors.computeIfAbsent(kind, (k) -> new LongAdder()).increment();
		}
	}

	/** A load thread ended after {@code wallNanos}, {@code cpuNanos} of them on the CPU. */
	synchronized void generatorThread(long cpuNanos, long wallNanos) {
		if (cpuNanos >= 0 && wallNanos > 0) {
			this.generatorBusy = Math.max(this.generatorBusy, Math.min(1.0, cpuNanos / (double) wallNanos));
		}
	}

	synchronized double generatorBusy() {
		return this.generatorBusy;
	}

	long succeededInWindow() {
		return this.succeededInWindow.sum();
	}

	/** Successful requests completed in the last full second, for progress lines. */
	long succeededInSecond(long second) {
		return this.succeededPerSecond.get((int) Math.max(0, Math.min(second, this.maxSeconds - 1)));
	}

	LoadResult result(String name, int users, double offeredRps, Duration warmUp) {
		long windowEnd = Math.min(this.windowEndNanos, System.nanoTime());
		Duration window = Duration.ofNanos(Math.max(1, windowEnd - this.windowStartNanos));
		Map<String, Long> errorCounts = new TreeMap<>();
		this.errors.forEach((kind, count) -> errorCounts.put(kind, count.sum()));
		long succeeded = this.succeededInWindow.sum();
		long completed = succeeded + errorCounts.values().stream().mapToLong(Long::longValue).sum();
		double cycles = cycleRate();
		double throughput = (Double.isNaN(cycles) || completed == 0) ? Double.NaN : cycles * succeeded / completed;
		return new LoadResult(name, users, window, succeeded, Map.copyOf(errorCounts), this.recorder.getIntervalHistogram(),
				this.failureRecorder.getIntervalHistogram(), timeline(windowEnd), warmUp, offeredRps, generatorBusy(),
				throughput);
	}

	private int secondOf(long nanos) {
		return (int) Math.max(0, Math.min((nanos - this.startNanos) / 1_000_000_000L, this.maxSeconds - 1));
	}

	private List<LoadResult.Second> timeline(long windowEnd) {
		int seconds = (int) Math.min(this.maxSeconds, (System.nanoTime() - this.startNanos) / 1_000_000_000L + 1);
		List<LoadResult.Second> timeline = new ArrayList<>(seconds);
		for (int s = 0; s < seconds; s++) {
			long ok = this.succeededPerSecond.get(s);
			long failed = this.failedPerSecond.get(s);
			long all = ok + failed;
			double meanMs = (all == 0) ? 0 : this.latencyMicrosPerSecond.get(s) / 1000.0 / all;
			long secondStart = this.startNanos + s * 1_000_000_000L;
			timeline.add(new LoadResult.Second(s, ok, failed, meanMs, secondStart >= this.windowStartNanos && secondStart < windowEnd));
		}
		return timeline;
	}

}
