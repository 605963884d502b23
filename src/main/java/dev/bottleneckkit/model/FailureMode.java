package dev.bottleneckkit.model;

import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;

/**
 * The model of a run that proves a failure mode: every request is meant to fail, with
 * {@code kind}, after {@code timeToFail} (a read timeout, a reset, a pool's pending
 * limit). Little's law then counts failures instead of answers: a closed loop of
 * {@code users} fails {@code users / timeToFail} times a second; an open loop fails as
 * often as requests arrive. The report shows this as the run's expectation, never a
 * throughput the run was not meant to reach.
 *
 * @param kind the error kind the load counts ({@code http-504 read-timeout},
 * {@code connection-reset}, …)
 * @param timeToFail how long a request takes to fail, 0 to 10 min; 0 when no timer sets
 * it (a reset, a killed service): then the model bounds the kind, not the rate
 * @param why what makes it fail, for the report: "the caller's 500 ms read timeout"
 */
public record FailureMode(String kind, Duration timeToFail, String why) {

	public FailureMode {
		Knobs.between("timeToFail", timeToFail, Duration.ZERO, Duration.ofMinutes(10));
		if (kind == null || kind.isBlank()) {
			throw new IllegalArgumentException("kind must name the error the load counts, was '" + kind + "'");
		}
		if (why == null || why.isBlank()) {
			throw new IllegalArgumentException("why must say what makes the requests fail, was '" + why + "'");
		}
	}

	/**
	 * Every request fails with {@code kind} after {@code timeToFail}, because of
	 * {@code why}.
	 */
	public static FailureMode of(String kind, Duration timeToFail, String why) {
		return new FailureMode(kind, timeToFail, why);
	}

	/**
	 * Failures per second the load that produced {@code result} should see: users / time
	 * to fail for a closed loop, the offered rate for an open loop; empty when no timer
	 * sets the time to fail (a reset: then the model bounds the kind, not the rate).
	 */
	public OptionalDouble failuresPerSecondFor(LoadResult result) {
		if (result.openLoop()) {
			return result.offeredRps();
		}
		return this.timeToFail.isZero() ? OptionalDouble.empty()
				: OptionalDouble.of(result.users() / (this.timeToFail.toNanos() / 1e9));
	}

	/**
	 * "every request fails with http-504 read-timeout after 500 ms: the caller's 500 ms
	 * read timeout"
	 */
	public String explain() {
		String when = this.timeToFail.isZero() ? "" : " after " + this.timeToFail.toMillis() + " ms";
		return String.format(Locale.ROOT, "every request fails with %s%s: %s", this.kind, when, this.why);
	}

}
