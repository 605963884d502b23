package dev.bottleneckkit.lab.probe;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts requests being served right now and the highest such count since the last reset.
 * The peak is the mechanism a scenario asserts: a pool of 5 connections upstream shows
 * here as a peak of exactly 5. The mean time a request spent here since the reset is the
 * W of Little's law at this service, measured while the load ran: what a pool upstream
 * holds a connection for, or a thread here is held for.
 */
public class InFlightTracker {

	private final AtomicInteger current = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private final AtomicLong completed = new AtomicLong();

	private final AtomicLong abandoned = new AtomicLong();

	private final AtomicLong servedNanos = new AtomicLong();

	public void enter() {
		int now = this.current.incrementAndGet();
		this.peak.accumulateAndGet(now, Math::max);
	}

	/** A request left after {@code nanos} here. */
	public void exit(long nanos) {
		this.current.decrementAndGet();
		this.completed.incrementAndGet();
		this.servedNanos.addAndGet(nanos);
	}

	/**
	 * Counts a request whose client went away before the answer was written: the caller
	 * cancelled it. It still counts as completed when it leaves.
	 */
	public void abandoned() {
		this.abandoned.incrementAndGet();
	}

	public Snapshot snapshot() {
		long completed = this.completed.get();
		double meanMs = (completed == 0) ? 0 : this.servedNanos.get() / 1e6 / completed;
		return new Snapshot(this.current.get(), this.peak.get(), completed, this.abandoned.get(), meanMs);
	}

	/** Starts a new observation window: the peak restarts from what is in flight now. */
	public Snapshot reset() {
		Snapshot before = snapshot();
		this.peak.set(this.current.get());
		this.completed.set(0);
		this.abandoned.set(0);
		this.servedNanos.set(0);
		return before;
	}

	/**
	 * In-flight requests now, the peak since the last reset, requests completed since
	 * then, how many of those the client abandoned, and the mean time the completed ones
	 * spent here, in milliseconds.
	 */
	public record Snapshot(int current, int peak, long completed, long abandoned, double meanMs) {
	}

}
