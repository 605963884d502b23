package dev.bottleneckkit.kit.load;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * What a load run measured inside its measurement window (after warm-up): completed requests,
 * throughput, latency percentiles (HdrHistogram, microsecond resolution), errors by kind, and a
 * per-second timeline of the whole run, warm-up included.
 *
 * @param name what was loaded, for reports
 * @param users concurrent users (closed loop), or the bound on outstanding requests (open loop)
 * @param window length of the measurement window
 * @param succeeded requests answered 2xx inside the window
 * @param errors failed requests inside the window, by kind: {@code http-503}, {@code timeout}, …
 * @param latencies latencies of the requests that succeeded inside the window, in microseconds
 * @param failureLatencies time until failure of the requests that failed inside the window (sent ones)
 * @param timeline one entry per second since the run started
 * @param warmUp length of the warm-up before the window
 * @param offeredRps the open loop's arrival rate, requests per second; NaN for a closed loop
 */
public record LoadResult(String name, int users, Duration window, long succeeded, Map<String, Long> errors,
		Histogram latencies, Histogram failureLatencies, List<Second> timeline, Duration warmUp, double offeredRps) {

	/** True for a constant-arrival-rate run. */
	public boolean openLoop() {
		return !Double.isNaN(this.offeredRps);
	}

	/** Successful requests per second inside the measurement window. */
	public double throughput() {
		return this.succeeded / (this.window.toNanos() / 1e9);
	}

	public long errorCount() {
		return this.errors.values().stream().mapToLong(Long::longValue).sum();
	}

	/** Failed requests per second inside the measurement window: the failure rate Little's law predicts. */
	public double errorsPerSecond() {
		return errorCount() / (this.window.toNanos() / 1e9);
	}

	/** Latency at {@code percentile} (0 to 100) of the requests completed in the window. */
	public Duration latencyAt(double percentile) {
		return Duration.ofNanos(this.latencies.getValueAtPercentile(percentile) * 1000);
	}

	/** Time until failure at {@code percentile} (0 to 100) of the sent requests that failed in the window. */
	public Duration failureLatencyAt(double percentile) {
		return Duration.ofNanos(this.failureLatencies.getValueAtPercentile(percentile) * 1000);
	}

	public Duration median() {
		return latencyAt(50);
	}

	public Duration p99() {
		return latencyAt(99);
	}

	public Duration maxLatency() {
		return Duration.ofNanos(this.latencies.getMaxValue() * 1000);
	}

	/** "40 users: 9.9 rps, p50 4012 ms, p99 4504 ms, 0 errors" */
	public String summary() {
		String load = openLoop() ? String.format(Locale.ROOT, "%.1f rps offered", this.offeredRps) : this.users + " users";
		return String.format(Locale.ROOT, "%s, %s: %.1f rps, p50 %d ms, p90 %d ms, p99 %d ms, %d errors%s", this.name,
				load, throughput(), median().toMillis(), latencyAt(90).toMillis(), p99().toMillis(), errorCount(),
				this.errors.isEmpty() ? "" : " " + this.errors);
	}

	/**
	 * One second of the run.
	 * @param second seconds since the run started
	 * @param succeeded requests answered 2xx that second
	 * @param failed requests that failed that second
	 * @param meanLatencyMs mean latency of the requests completed that second, 0 when none completed
	 * @param inWindow whether the second lies in the measurement window
	 */
	public record Second(int second, long succeeded, long failed, double meanLatencyMs, boolean inWindow) {
	}

}
