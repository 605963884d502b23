package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import dev.bottleneckkit.internal.RunHook;
import org.HdrHistogram.Recorder;

/**
 * The figures of one load run, recorded from many threads: latencies of requests
 * completed inside the measurement window (HdrHistogram, microseconds), errors by kind,
 * and per-second counts over the whole run. Shared by the closed- and open-loop drivers.
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

	/** The window's shortest end, when it waits for every user's cycles. */
	private final long shortestEndNanos;

	/**
	 * Answers in the window each user needs before it may end (0: the window has a fixed
	 * length).
	 */
	private final long answersWanted;

	private final int usersToWaitFor;

	/**
	 * Answers in the window after which it may end (at its shortest length, if that is
	 * later); 0: no such count.
	 */
	private volatile long answersToEndAfter;

	private final java.util.concurrent.atomic.AtomicInteger usersReady = new java.util.concurrent.atomic.AtomicInteger();

	/**
	 * Every request that lived during the window, as its start and end (nanoTime) and
	 * whether it succeeded: their shares of life inside the window are the throughput,
	 * once the window's end is known.
	 */
	private long[] lives = new long[1024];

	private int livesRecorded;

	/**
	 * The event loops that still have a request in flight that began inside the window.
	 */
	private final java.util.Set<Object> loopsInWindow = java.util.concurrent.ConcurrentHashMap.newKeySet();

	/** Event loops that ever said whether they have such a request. */
	private final java.util.Set<Object> loopsSeen = java.util.concurrent.ConcurrentHashMap.newKeySet();

	private volatile int loops = 1;

	/** How many event loops send this run's requests. */
	void loops(int count) {
		this.loops = count;
	}

	/**
	 * {@code loop} says whether it still has a request in flight that began inside the
	 * window; true while any loop of the run has one (or has not said yet).
	 */
	boolean windowRequestsInFlight(Object loop, boolean mine) {
		this.loopsSeen.add(loop);
		if (mine) {
			this.loopsInWindow.add(loop);
		}
		else {
			this.loopsInWindow.remove(loop);
		}
		return !this.loopsInWindow.isEmpty() || this.loopsSeen.size() < this.loops;
	}

	/** The busiest load thread's share of its wall time on the CPU, 0 to 1. */
	private double generatorBusy;

	/** Each route's own figures, in the mix's order, when the load sends a mix. */
	private final java.util.LinkedHashMap<String, Measurement> routes = new java.util.LinkedHashMap<>();

	private final List<Measurement> routeList = new ArrayList<>();

	/** The whole run's measurement, when this one is a route's share of it; else null. */
	private final Measurement whole;

	Measurement(Duration warmUp, Duration window, Duration requestTimeout) {
		this(warmUp, window, window, requestTimeout, 0, 0);
	}

	/**
	 * A window of at least {@code window} and at most {@code maxWindow} that ends once
	 * each of {@code users} has answered {@code cycles} + 1 times in it ({@code cycles}
	 * 0: the window lasts {@code window}).
	 */
	Measurement(Duration warmUp, Duration window, Duration maxWindow, Duration requestTimeout, int cycles, int users) {
		this.whole = null;
		this.answersWanted = (cycles > 0) ? cycles + 1 : 0;
		this.usersToWaitFor = users;
		Duration longest = maxWindow;
		this.maxSeconds = (int) (warmUp.plus(longest).plus(requestTimeout).toSeconds() + 2);
		this.succeededPerSecond = new AtomicLongArray(this.maxSeconds);
		this.failedPerSecond = new AtomicLongArray(this.maxSeconds);
		this.latencyMicrosPerSecond = new AtomicLongArray(this.maxSeconds);
		this.startNanos = System.nanoTime();
		this.windowStartNanos = this.startNanos + warmUp.toNanos();
		this.shortestEndNanos = this.windowStartNanos + window.toNanos();
		this.windowEndNanos = this.windowStartNanos + longest.toNanos();
	}

	/** A route's share of {@code whole}: the same clock and window, its own figures. */
	private Measurement(Measurement whole) {
		this.whole = whole;
		this.answersWanted = 0;
		this.usersToWaitFor = 0;
		this.maxSeconds = whole.maxSeconds;
		this.succeededPerSecond = new AtomicLongArray(this.maxSeconds);
		this.failedPerSecond = new AtomicLongArray(this.maxSeconds);
		this.latencyMicrosPerSecond = new AtomicLongArray(this.maxSeconds);
		this.startNanos = whole.startNanos;
		this.windowStartNanos = whole.windowStartNanos;
		this.shortestEndNanos = whole.shortestEndNanos;
		this.windowEndNanos = whole.windowEndNanos;
	}

	/**
	 * Ends the window once {@code answers} requests ended in it, answered or failed, but
	 * not before its shortest length: the window this was made with, up to its longest.
	 */
	Measurement endingAfterAnswers(long answers) {
		this.answersToEndAfter = answers;
		return this;
	}

	/**
	 * Keeps each of {@code names} apart too, as well as the whole: a load of a mix of
	 * requests reports every route's figures. One name: nothing to keep apart.
	 */
	Measurement withRoutes(List<String> names) {
		if (names.size() > 1) {
			for (String name : names) {
				Measurement route = new Measurement(this);
				this.routes.put(name, route);
				this.routeList.add(route);
			}
		}
		return this;
	}

	/**
	 * Records a request of route {@code route} (its index in the mix), in the whole and
	 * in that route's figures.
	 */
	boolean record(long startNanos, long doneNanos, String failure, int route) {
		boolean inWindow = record(startNanos, doneNanos, failure);
		if (!this.routes.isEmpty()) {
			this.routeList.get(route).record(startNanos, doneNanos, failure);
		}
		return inWindow;
	}

	/**
	 * A user answered for the {@code answered}-th time in the window at {@code nanos}:
	 * when every user has answered as often as the window waits for, it ends then (or at
	 * its shortest length, if that is later).
	 */
	void userAnswered(long answered, long nanos) {
		if (this.answersWanted > 0 && answered == this.answersWanted
				&& this.usersReady.incrementAndGet() == this.usersToWaitFor) {
			endWindowAt(Math.max(nanos, this.shortestEndNanos));
		}
	}

	long windowEndNanos() {
		return this.windowEndNanos;
	}

	/** Ends the window early (count-bounded runs). */
	void endWindowAt(long nanos) {
		this.windowEndNanos = Math.min(this.windowEndNanos, nanos);
		this.routes.values().forEach((route) -> route.endWindowAt(nanos));
	}

	/**
	 * Records a request that was meant to start at {@code startNanos} and ended at
	 * {@code doneNanos}; true when it ended inside the measurement window.
	 */
	boolean record(long startNanos, long doneNanos, String failure) {
		if (doneNanos > this.windowStartNanos && startNanos < this.windowEndNanos) {
			life(startNanos, doneNanos, failure == null);
		}
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
		if (this.answersToEndAfter > 0 && completedInWindow() >= this.answersToEndAfter) {
			// Later answers end it no earlier: the window keeps the first end it is
			// given.
			endWindowAt(Math.max(doneNanos, this.shortestEndNanos));
		}
		return true;
	}

	private synchronized void life(long startNanos, long doneNanos, boolean succeeded) {
		if (this.livesRecorded * 2 + 2 > this.lives.length) {
			this.lives = java.util.Arrays.copyOf(this.lives, this.lives.length * 2);
		}
		this.lives[this.livesRecorded * 2] = startNanos;
		// The sign carries the outcome: a failed request's end is stored negated.
		this.lives[this.livesRecorded * 2 + 1] = succeeded ? doneNanos : -doneNanos;
		this.livesRecorded++;
	}

	/**
	 * Successful requests per second by their lives: each request that lived during the
	 * window counts the share of its life that lay inside it, (overlap with the window) /
	 * (its latency). In a closed loop a user is always in some request, so each instant
	 * of the window counts 1 / (the latency of the request the user is in) for each user;
	 * averaged over the window that is the user's rate exactly, for any spread of
	 * latencies (the chance of an instant falling in a request is in proportion to its
	 * length, which the division takes back out). A count of the answers that ended
	 * inside the window has no such guarantee: users that come back in waves make it read
	 * a whole wave more or less depending on where the edges fall.
	 */
	/**
	 * Mean latency of the successful requests by Little's law over the window, W = L / X:
	 * the time users spent in them inside the window over their shares of life inside it.
	 * A request still in flight when the window ends counts with its whole latency (the
	 * run waits for it), where a mean of the answers that ended inside the window leaves
	 * out the longest, those a starved queue holds past the window's end. NaN without a
	 * successful request.
	 */
	synchronized double meanLatencyNanosByLives(long windowEndNanos) {
		double inFlight = 0;
		double shares = 0;
		for (int i = 0; i < this.livesRecorded; i++) {
			long start = this.lives[i * 2];
			long end = this.lives[i * 2 + 1];
			if (end < 0) {
				continue;
			}
			long overlap = Math.min(end, windowEndNanos) - Math.max(start, this.windowStartNanos);
			if (overlap > 0 && end > start) {
				inFlight += overlap;
				shares += overlap / (double) (end - start);
			}
		}
		return (shares == 0) ? Double.NaN : inFlight / shares;
	}

	/**
	 * The successful requests in flight at once that the window held longest, by their
	 * lives: each instant of the window counts the successful requests alive then, and
	 * the count held for the most time is the figure. Where a limit refuses what it
	 * cannot hold, that is the N it lets through, read from every request rather than
	 * from the few instants a thread dump catches. -1 without a successful request.
	 */
	synchronized int successesInFlight(long windowEndNanos) {
		long[] starts = new long[this.livesRecorded];
		long[] ends = new long[this.livesRecorded];
		int alive = 0;
		for (int i = 0; i < this.livesRecorded; i++) {
			long start = Math.max(this.lives[i * 2], this.windowStartNanos);
			long end = Math.min(this.lives[i * 2 + 1], windowEndNanos);
			if (this.lives[i * 2 + 1] >= 0 && end > start) {
				starts[alive] = start;
				ends[alive] = end;
				alive++;
			}
		}
		if (alive == 0) {
			return -1;
		}
		java.util.Arrays.sort(starts, 0, alive);
		java.util.Arrays.sort(ends, 0, alive);
		Map<Integer, Long> held = new java.util.HashMap<>();
		int inFlight = 0;
		long at = this.windowStartNanos;
		int started = 0;
		int ended = 0;
		while (ended < alive) {
			boolean starting = started < alive && starts[started] < ends[ended];
			long next = starting ? starts[started] : ends[ended];
			held.merge(inFlight, next - at, Long::sum);
			at = next;
			inFlight += starting ? 1 : -1;
			if (starting) {
				started++;
			}
			else {
				ended++;
			}
		}
		held.merge(0, Math.max(0, windowEndNanos - at), Long::sum);
		return held.entrySet()
			.stream()
			.filter((level) -> level.getKey() > 0)
			.max(Map.Entry.<Integer, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
			.map(Map.Entry::getKey)
			.orElse(-1);
	}

	synchronized double throughputByLives(long windowEndNanos) {
		double succeeded = 0;
		for (int i = 0; i < this.livesRecorded; i++) {
			long start = this.lives[i * 2];
			long end = this.lives[i * 2 + 1];
			if (end < 0) {
				continue;
			}
			long overlap = Math.min(end, windowEndNanos) - Math.max(start, this.windowStartNanos);
			if (overlap > 0 && end > start) {
				succeeded += overlap / (double) (end - start);
			}
		}
		return succeeded / ((windowEndNanos - this.windowStartNanos) / 1e9);
	}

	/**
	 * What the window would have read had it ended early, by the same lives estimator:
	 * for each of {@code latencies}, the window ended at the first answer that made the
	 * answers in it {@code n} × the users (n mean latencies of a closed loop, by Little's
	 * law: users / throughput is one mean latency, and after n of them the users have
	 * answered about n × users times), and for each of {@code lengths} the window ended
	 * then; the figures then over the whole window's. Exact for a closed loop: every
	 * request that began before the shorter end is among the lives, and the run waited
	 * for each of them. Empty for an open loop and for a window that never reached the
	 * count.
	 */
	synchronized List<RunHook.Replay> replays(int[] latencies, Duration[] lengths) {
		long wholeEnd = Math.min(this.windowEndNanos, System.nanoTime());
		if (this.usersToWaitFor <= 0 || this.whole != null || this.livesRecorded == 0) {
			return List.of();
		}
		long[] ends = new long[this.livesRecorded];
		int answered = 0;
		for (int i = 0; i < this.livesRecorded; i++) {
			long end = Math.abs(this.lives[i * 2 + 1]);
			if (end > this.windowStartNanos && end <= wholeEnd) {
				ends[answered++] = end;
			}
		}
		long[] sorted = java.util.Arrays.copyOf(ends, answered);
		java.util.Arrays.sort(sorted);
		double wholeThroughput = throughputByLives(wholeEnd);
		double wholeMean = meanLatencyNanosByLives(wholeEnd);
		List<RunHook.Replay> replays = new ArrayList<>();
		if (wholeThroughput <= 0) {
			return List.of();
		}
		for (int n : latencies) {
			long wanted = (long) n * this.usersToWaitFor;
			if (wanted <= sorted.length && sorted[(int) (wanted - 1)] < wholeEnd) {
				replays.add(replay(n, sorted[(int) (wanted - 1)], wholeThroughput, wholeMean));
			}
		}
		for (Duration length : lengths) {
			long end = this.windowStartNanos + length.toNanos();
			if (end < wholeEnd) {
				replays.add(replay(0, end, wholeThroughput, wholeMean));
			}
		}
		return replays;
	}

	private RunHook.Replay replay(int latencies, long end, double wholeThroughput, double wholeMean) {
		return new RunHook.Replay(latencies, Duration.ofNanos(end - this.windowStartNanos),
				throughputByLives(end) / wholeThroughput, meanLatencyNanosByLives(end) / wholeMean);
	}

	/**
	 * Counts a request that was never sent (e.g. the open loop's outstanding bound), at
	 * {@code nanos}.
	 */
	void recordNotSent(long nanos, String kind) {
		this.failedPerSecond.incrementAndGet(secondOf(nanos));
		if (nanos >= this.windowStartNanos && nanos <= this.windowEndNanos) {
			this.errors.computeIfAbsent(kind, (k) -> new LongAdder()).increment();
		}
	}

	/**
	 * A load thread ended after {@code wallNanos}, {@code cpuNanos} of them on the CPU.
	 */
	synchronized void generatorThread(long cpuNanos, long wallNanos) {
		if (cpuNanos >= 0 && wallNanos > 0) {
			this.generatorBusy = Math.max(this.generatorBusy, Math.min(1.0, cpuNanos / (double) wallNanos));
		}
	}

	synchronized double generatorBusy() {
		if (this.whole != null) {
			return this.whole.generatorBusy();
		}
		return this.generatorBusy;
	}

	/**
	 * Requests that ended inside the window, answered or failed: what a count-bounded run
	 * counts.
	 */
	long completedInWindow() {
		return this.succeededInWindow.sum() + this.errors.values().stream().mapToLong(LongAdder::sum).sum();
	}

	long succeededInWindow() {
		return this.succeededInWindow.sum();
	}

	/** Successful requests completed in the last full second, for progress lines. */
	long succeededInSecond(long second) {
		return this.succeededPerSecond.get((int) Math.max(0, Math.min(second, this.maxSeconds - 1)));
	}

	LoadResult result(String name, int users, double offeredRps, Duration warmUp) {
		return result(name, users, offeredRps, warmUp, List.of());
	}

	/**
	 * The figures of the run; with a mix, {@code shares} are the routes' shares of the
	 * requests (their weights over the total), for an open loop's offered rate per route.
	 */
	LoadResult result(String name, int users, double offeredRps, Duration warmUp, List<Double> shares) {
		long windowEnd = Math.min(this.windowEndNanos, System.nanoTime());
		Map<String, LoadResult> byRoute = new java.util.LinkedHashMap<>();
		int i = 0;
		for (Map.Entry<String, Measurement> route : this.routes.entrySet()) {
			double share = (i < shares.size()) ? shares.get(i) : Double.NaN;
			byRoute.put(route.getKey(),
					route.getValue().result(route.getKey(), users, offeredRps * share, warmUp, windowEnd));
			i++;
		}
		return result(name, users, offeredRps, warmUp, windowEnd).withRoutes(byRoute);
	}

	private LoadResult result(String name, int users, double offeredRps, Duration warmUp, long windowEnd) {
		Duration window = Duration.ofNanos(Math.max(1, windowEnd - this.windowStartNanos));
		Map<String, Long> errorCounts = new TreeMap<>();
		this.errors.forEach((kind, count) -> errorCounts.put(kind, count.sum()));
		long succeeded = this.succeededInWindow.sum();
		double throughput = Double.isNaN(offeredRps) ? throughputByLives(windowEnd) : Double.NaN;
		double meanNanos = Double.isNaN(offeredRps) ? meanLatencyNanosByLives(windowEnd) : Double.NaN;
		int inFlight = Double.isNaN(offeredRps) ? successesInFlight(windowEnd) : -1;
		return new LoadResult(name, users, window, succeeded, Map.copyOf(errorCounts),
				this.recorder.getIntervalHistogram(), this.failureRecorder.getIntervalHistogram(), timeline(windowEnd),
				warmUp, offeredRps, generatorBusy(), throughput, meanNanos)
			.withSuccessesInFlight(inFlight);
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
			timeline.add(new LoadResult.Second(s, ok, failed, meanMs,
					secondStart >= this.windowStartNanos && secondStart < windowEnd));
		}
		return timeline;
	}

}
