package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/** Load results made by hand, for tests of what reads them (assertions, the report). */
public final class LoadResults {

	private LoadResults() {
	}

	/** A closed-loop result whose {@code succeeded} requests all took {@code latency}. */
	public static LoadResult closedLoop(String name, int users, Duration window, long succeeded, Duration latency) {
		return of(name, users, window, succeeded, latency, List.of(), Duration.ZERO, Double.NaN);
	}

	/**
	 * A result whose {@code succeeded} requests all took {@code latency};
	 * {@code offeredRps} NaN for a closed loop.
	 */
	public static LoadResult of(String name, int users, Duration window, long succeeded, Duration latency,
			List<LoadResult.Second> timeline, Duration warmUp, double offeredRps) {
		Histogram latencies = new Histogram(3);
		for (long i = 0; i < succeeded; i++) {
			latencies.recordValue(latency.toNanos() / 1000);
		}
		return new LoadResult(name, users, window, succeeded, Map.of(), latencies, new Histogram(3), timeline, warmUp,
				offeredRps, 0.1);
	}

	/**
	 * A closed-loop result as above whose generator's busiest thread was on the CPU
	 * {@code generatorBusy} (0 to 1) of the run.
	 */
	public static LoadResult closedLoop(String name, int users, Duration window, long succeeded, Duration latency,
			double generatorBusy) {
		Histogram latencies = new Histogram(3);
		for (long i = 0; i < succeeded; i++) {
			latencies.recordValue(latency.toNanos() / 1000);
		}
		return new LoadResult(name, users, window, succeeded, Map.of(), latencies, new Histogram(3), List.of(),
				Duration.ZERO, Double.NaN, generatorBusy);
	}

	/**
	 * A closed loop whose {@code succeeded} requests took {@code latency} and whose
	 * failures, by kind, {@code failed}.
	 */
	public static LoadResult closedLoop(String name, int users, Duration window, long succeeded, Duration latency,
			Map<String, Long> errors, Duration failed) {
		Histogram latencies = new Histogram(3);
		for (long i = 0; i < succeeded; i++) {
			latencies.recordValue(latency.toNanos() / 1000);
		}
		Histogram failures = new Histogram(3);
		long count = errors.values().stream().mapToLong(Long::longValue).sum();
		for (long i = 0; i < count; i++) {
			failures.recordValue(failed.toNanos() / 1000);
		}
		return new LoadResult(name, users, window, succeeded, errors, latencies, failures, List.of(), Duration.ZERO,
				Double.NaN, 0.1);
	}

	/**
	 * {@code result} with {@code inFlight} successful requests in flight at once, as the
	 * load reads them from its requests' lives.
	 */
	public static LoadResult withSuccessesInFlight(LoadResult result, int inFlight) {
		return result.withSuccessesInFlight(inFlight);
	}

}
