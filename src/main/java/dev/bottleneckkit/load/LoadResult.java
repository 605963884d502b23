package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * What a load run measured inside its measurement window (after warm-up): completed
 * requests, throughput, latency percentiles (microsecond resolution), errors by kind, and
 * a per-second timeline of the whole run, warm-up included. Made by
 * {@link ClosedLoopLoad} and {@link OpenLoopLoad}; immutable.
 */
public final class LoadResult {

	/**
	 * Share of the run on the CPU above which the generator's busiest thread counts as
	 * saturated.
	 */
	public static final double GENERATOR_SATURATED = 0.9;

	private final String name;

	private final int users;

	private final Duration window;

	private final long succeeded;

	private final Map<String, Long> errors;

	private final Histogram latencies;

	private final Histogram failureLatencies;

	private final List<Second> timeline;

	private final Duration warmUp;

	private final double offeredRps;

	private final double generatorBusy;

	/**
	 * Successful requests per second by the requests' lives inside the window; NaN when
	 * the count is the figure.
	 */
	private final double livesThroughput;

	/**
	 * Mean latency by Little's law over the window; NaN when the answers' mean is the
	 * figure.
	 */
	private final double livesMeanNanos;

	/**
	 * Each route's own figures when the load sent a mix, in the mix's order; empty for
	 * one route.
	 */
	private final Map<String, LoadResult> byRoute;

	/**
	 * The successful requests in flight at once held longest in the window; -1: not read.
	 */
	private final int successesInFlight;

	/**
	 * Latencies in microseconds; the histograms are the load driver's own copies, never
	 * handed out.
	 */
	LoadResult(String name, int users, Duration window, long succeeded, Map<String, Long> errors, Histogram latencies,
			Histogram failureLatencies, List<Second> timeline, Duration warmUp, double offeredRps,
			double generatorBusy) {
		this(name, users, window, succeeded, errors, latencies, failureLatencies, timeline, warmUp, offeredRps,
				generatorBusy, Double.NaN);
	}

	LoadResult(String name, int users, Duration window, long succeeded, Map<String, Long> errors, Histogram latencies,
			Histogram failureLatencies, List<Second> timeline, Duration warmUp, double offeredRps, double generatorBusy,
			double livesThroughput) {
		this(name, users, window, succeeded, errors, latencies, failureLatencies, timeline, warmUp, offeredRps,
				generatorBusy, livesThroughput, Double.NaN, Map.of(), -1);
	}

	LoadResult(String name, int users, Duration window, long succeeded, Map<String, Long> errors, Histogram latencies,
			Histogram failureLatencies, List<Second> timeline, Duration warmUp, double offeredRps, double generatorBusy,
			double livesThroughput, double livesMeanNanos) {
		this(name, users, window, succeeded, errors, latencies, failureLatencies, timeline, warmUp, offeredRps,
				generatorBusy, livesThroughput, livesMeanNanos, Map.of(), -1);
	}

	private LoadResult(String name, int users, Duration window, long succeeded, Map<String, Long> errors,
			Histogram latencies, Histogram failureLatencies, List<Second> timeline, Duration warmUp, double offeredRps,
			double generatorBusy, double livesThroughput, double livesMeanNanos, Map<String, LoadResult> byRoute,
			int successesInFlight) {
		this.successesInFlight = successesInFlight;
		this.livesMeanNanos = livesMeanNanos;
		this.byRoute = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byRoute));
		this.livesThroughput = livesThroughput;
		this.name = name;
		this.users = users;
		this.window = window;
		this.succeeded = succeeded;
		this.errors = Map.copyOf(errors);
		this.latencies = latencies;
		this.failureLatencies = failureLatencies;
		this.timeline = List.copyOf(timeline);
		this.warmUp = warmUp;
		this.offeredRps = offeredRps;
		this.generatorBusy = generatorBusy;
	}

	/** The same result with each route's figures. */
	LoadResult withRoutes(Map<String, LoadResult> routes) {
		return routes.isEmpty() ? this
				: new LoadResult(this.name, this.users, this.window, this.succeeded, this.errors, this.latencies,
						this.failureLatencies, this.timeline, this.warmUp, this.offeredRps, this.generatorBusy,
						this.livesThroughput, this.livesMeanNanos, routes, this.successesInFlight);
	}

	/** The same result with the successful requests in flight it read; -1: not read. */
	LoadResult withSuccessesInFlight(int inFlight) {
		return new LoadResult(this.name, this.users, this.window, this.succeeded, this.errors, this.latencies,
				this.failureLatencies, this.timeline, this.warmUp, this.offeredRps, this.generatorBusy,
				this.livesThroughput, this.livesMeanNanos, this.byRoute, inFlight);
	}

	/**
	 * The successful requests in flight at once that the window held longest, by every
	 * request's life: where a limit turns away what it cannot hold, the N it lets
	 * through, counted without a thread dump, whenever one would have landed. Empty for
	 * an open loop and a window without a successful request.
	 */
	public OptionalInt successesInFlight() {
		return (this.successesInFlight > 0) ? OptionalInt.of(this.successesInFlight) : OptionalInt.empty();
	}

	/**
	 * Each route's own figures when the load sent a mix of requests ({@link Request}), by
	 * the route's name in the mix's order: throughput, latency and errors of that route
	 * alone, in the same window. Empty for one route.
	 */
	public Map<String, LoadResult> byRoute() {
		return this.byRoute;
	}

	/** What was loaded, for reports. */
	public String name() {
		return this.name;
	}

	/**
	 * Concurrent users (closed loop), or the bound on outstanding requests (open loop).
	 */
	public int users() {
		return this.users;
	}

	/** Length of the measurement window. */
	public Duration window() {
		return this.window;
	}

	/** Requests answered 2xx inside the window. */
	public long succeeded() {
		return this.succeeded;
	}

	/**
	 * Failed requests inside the window, by kind: {@code http-503}, {@code timeout}, …
	 */
	public Map<String, Long> errors() {
		return this.errors;
	}

	/** One entry per second since the run started, warm-up included. */
	public List<Second> timeline() {
		return this.timeline;
	}

	/** Length of the warm-up before the window. */
	public Duration warmUp() {
		return this.warmUp;
	}

	/** The open loop's arrival rate, requests per second; empty for a closed loop. */
	public OptionalDouble offeredRps() {
		return openLoop() ? OptionalDouble.of(this.offeredRps) : OptionalDouble.empty();
	}

	/**
	 * The load generator's self-check: the share of the run its busiest thread spent on
	 * the CPU, 0 to 1. Near 1, the generator could not send faster, so it, not the
	 * service, may have been the cap.
	 */
	public double generatorBusy() {
		return this.generatorBusy;
	}

	/**
	 * Whether the generator's busiest thread was on the CPU at least 90 % of the run: the
	 * figures measure the generator.
	 */
	public boolean generatorSaturated() {
		return this.generatorBusy >= GENERATOR_SATURATED;
	}

	/** Requests that completed inside the window, answered or failed. */
	public long completed() {
		return this.succeeded + errorCount();
	}

	/**
	 * Mean latency of the requests that succeeded: the W of Little's law. For a closed
	 * loop it is Little's law over the window, the time users spent in requests over the
	 * requests' shares of life in it, so a request still in flight at the window's end
	 * counts with its whole latency (a mean of the answers that ended inside the window
	 * leaves out the longest); for an open loop, the mean of the answers.
	 */
	public Duration meanLatency() {
		if (!Double.isNaN(this.livesMeanNanos)) {
			return Duration.ofNanos(Math.round(this.livesMeanNanos));
		}
		return Duration.ofNanos(Math.round(this.latencies.getMean() * 1000));
	}

	/**
	 * Mean latency of the answers that ended inside the window, those still in flight at
	 * its end left out: lower than {@link #meanLatency()} when a queue holds some
	 * requests past the window's end.
	 */
	public Duration meanOfAnswers() {
		return Duration.ofNanos(Math.round(this.latencies.getMean() * 1000));
	}

	/**
	 * Mean latency of the answers that ended inside the window, each rounded up to a
	 * whole number of {@code grid}s: how long a resource held for one call stays taken
	 * when it is taken again only by an arrival of an open loop that sends every
	 * {@code grid} (a permit freed 508 ms after its call arrived waits for the arrival at
	 * 525 ms when they come every 25 ms).
	 */
	public Duration meanLatencyRoundedUpTo(Duration grid) {
		long gridMicros = grid.toNanos() / 1000;
		if (gridMicros <= 0) {
			throw new IllegalArgumentException("the grid must be at least 1 µs, was " + grid);
		}
		if (this.latencies.getTotalCount() == 0) {
			return Duration.ZERO;
		}
		double sum = 0;
		for (HistogramIterationValue value : this.latencies.recordedValues()) {
			long rounded = (value.getValueIteratedTo() + gridMicros - 1) / gridMicros * gridMicros;
			sum += (double) rounded * value.getCountAtValueIteratedTo();
		}
		return Duration.ofNanos(Math.round(sum / this.latencies.getTotalCount() * 1000));
	}

	/** True for a constant-arrival-rate run. */
	public boolean openLoop() {
		return !Double.isNaN(this.offeredRps);
	}

	/**
	 * Successful requests per second inside the measurement window. For a closed loop
	 * each request that lived during the window counts the share of its life inside it
	 * (overlap / latency): users that start together come back in waves, and a count of
	 * the answers that ended inside the window reads one wave more or less depending on
	 * where its edges fall (5 users, 300 ms answers, a 1 s window opening on a wave: 4
	 * waves, 20 rps where 16.7 is all there is). For an open loop, the count of answers
	 * over the window's length.
	 */
	public double throughput() {
		return Double.isNaN(this.livesThroughput) ? countedThroughput() : this.livesThroughput;
	}

	/**
	 * Successful requests inside the window over the window's length, whatever the waves.
	 */
	public double countedThroughput() {
		return this.succeeded / (this.window.toNanos() / 1e9);
	}

	/** Failed requests inside the window. */
	public long errorCount() {
		return this.errors.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * Failed requests per second inside the measurement window: the failure rate Little's
	 * law predicts.
	 */
	public double errorsPerSecond() {
		return errorCount() / (this.window.toNanos() / 1e9);
	}

	/**
	 * Latency at {@code percentile} (0 to 100) of the requests completed in the window.
	 */
	public Duration latencyAt(double percentile) {
		return Duration.ofNanos(this.latencies.getValueAtPercentile(percentile) * 1000);
	}

	/**
	 * Time until failure at {@code percentile} (0 to 100) of the sent requests that
	 * failed in the window.
	 */
	public Duration failureLatencyAt(double percentile) {
		return Duration.ofNanos(this.failureLatencies.getValueAtPercentile(percentile) * 1000);
	}

	/**
	 * The latencies of the answers that succeeded inside the window, in microseconds, as
	 * HdrHistogram's compressed encoding in Base64
	 * ({@code Histogram.decodeFromCompressedByteBuffer} reads it): kept beside the
	 * figures so that a later comparison can resample them.
	 */
	public String latencyHistogram() {
		java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(this.latencies.getNeededByteBufferCapacity());
		int length = this.latencies.encodeIntoCompressedByteBuffer(buffer);
		return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
	}

	/** Median latency of the requests that succeeded inside the window. */
	public Duration median() {
		return latencyAt(50);
	}

	/** 99th percentile latency of the requests that succeeded inside the window. */
	public Duration p99() {
		return latencyAt(99);
	}

	/** Highest latency of the requests that succeeded inside the window. */
	public Duration maxLatency() {
		return Duration.ofNanos(this.latencies.getMaxValue() * 1000);
	}

	/** "40 users: 9.9 rps, p50 4012 ms, p99 4504 ms, 0 errors" */
	public String summary() {
		String load = openLoop() ? String.format(Locale.ROOT, "%.1f rps offered", this.offeredRps)
				: (this.users == 1) ? "1 user" : this.users + " users";
		return String.format(Locale.ROOT, "%s, %s: %.1f rps, p50 %d ms, p90 %d ms, p99 %d ms, %d errors%s", this.name,
				load, throughput(), median().toMillis(), latencyAt(90).toMillis(), p99().toMillis(), errorCount(),
				this.errors.isEmpty() ? "" : " " + this.errors);
	}

	/**
	 * One second of the run.
	 *
	 * @param second seconds since the run started
	 * @param succeeded requests answered 2xx that second
	 * @param failed requests that failed that second
	 * @param meanLatencyMs mean latency of the requests completed that second, 0 when
	 * none completed
	 * @param inWindow whether the second lies in the measurement window
	 */
	public record Second(int second, long succeeded, long failed, double meanLatencyMs, boolean inWindow) {
	}

	/**
	 * What a load in turns measured ({@link ClosedLoopLoad#runInTurns}): each side's
	 * figures over the whole window (its latencies are those of its requests), and each
	 * side's rate at full load, the figure to compare. Every turn begins with the other
	 * side's last requests in flight, one a user; the drain takes a slower side's turn
	 * further into the next, so that counting each side's answers in its own turns bends
	 * a ratio away from 1 (a side 5 % slower read 0.924 in 250 ms turns). A side's rate
	 * at full load counts its answers once the other side's last one is in, over the time
	 * from then to its turns' ends: every user on its side, and nothing of the other's
	 * left. Its requests are counted by their lives, as a window's throughput is: each
	 * the share of its life that falls there.
	 *
	 * @param first the first side's requests, over the window
	 * @param second the second side's
	 * @param firstSide the first side's answers in its turns and at full load
	 * @param secondSide the second side's
	 * @param turn the length of a turn
	 * @param turnsEach the turns each side had in the window
	 */
	public record InTurns(LoadResult first, LoadResult second, Side firstSide, Side secondSide, Duration turn,
			int turnsEach) {

		/**
		 * One side's answers in its own turns, and at full load.
		 *
		 * @param answers its answers in its own turns
		 * @param answeredAtFullLoad those of them after the other side's last answer in
		 * the turn
		 * @param atFullLoad its requests after the other side's last answer in each of
		 * its turns, each counted by the share of its life that falls there
		 * @param fullLoad the time from that answer to each of its turns' end, added up
		 */
		public record Side(long answers, long answeredAtFullLoad, double atFullLoad, Duration fullLoad) {

			/**
			 * Answers a second at full load, its requests counted by their lives; empty
			 * where the other side's drain took whole turns.
			 */
			public OptionalDouble rate() {
				return perSecond(this.atFullLoad);
			}

			/**
			 * Answers a second at full load, whole answers counted: what a request's
			 * phase at the drain's end moves where a service's threads run in step. Empty
			 * where the other side's drain took whole turns.
			 */
			public OptionalDouble answeredRate() {
				return perSecond(this.answeredAtFullLoad);
			}

			private OptionalDouble perSecond(double count) {
				return this.fullLoad.isZero() ? OptionalDouble.empty()
						: OptionalDouble.of(count / (this.fullLoad.toNanos() / 1e9));
			}

			/** The share of its turns this side had at full load, 0 to 1. */
			double fullShare(Duration turns) {
				return (double) this.fullLoad.toNanos() / turns.toNanos();
			}

		}

		/**
		 * The second side's rate at full load over the first's; empty where either side's
		 * turns were all drain.
		 */
		public OptionalDouble ratio() {
			return (this.firstSide.rate().isPresent() && this.secondSide.rate().isPresent())
					? OptionalDouble.of(this.secondSide.rate().getAsDouble() / this.firstSide.rate().getAsDouble())
					: OptionalDouble.empty();
		}

		/**
		 * "in 500 ms turns, 6 each: 812.0 / 790.3 rps at full load (91 % / 90 % of the
		 * turns), second / first 0.973".
		 */
		@Override
		public String toString() {
			Duration turns = this.turn.multipliedBy(this.turnsEach);
			return String.format(Locale.ROOT,
					"in %d ms turns, %d each: %.1f / %.1f rps at full load (%.0f %% / %.0f %% of the turns), second / first"
							+ " %.3f",
					this.turn.toMillis(), this.turnsEach, this.firstSide.rate().orElse(0),
					this.secondSide.rate().orElse(0), 100 * this.firstSide.fullShare(turns),
					100 * this.secondSide.fullShare(turns), ratio().orElse(0));
		}

	}

}
