package dev.bottleneckkit.assertions;

import java.time.Duration;
import java.util.Locale;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link LoadResult} that explain the cap when they fail: the
 * message names the resource, its limit and latency, and what Little's law makes of them.
 */
public class LoadResultAssert extends AbstractAssert<LoadResultAssert, LoadResult> {

	public LoadResultAssert(LoadResult actual) {
		super(actual, LoadResultAssert.class);
	}

	/**
	 * Throughput lies within {@code tolerance} (0.01 to 1, e.g. 0.15 for ±15 %) of what
	 * the ceiling allows this many users: min(users, limit) / latency.
	 */
	public LoadResultAssert hasThroughputNear(Ceiling ceiling, double tolerance) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("tolerance", tolerance, 0.01, 1.0);
		double expected = ceiling.throughputFor(this.actual);
		double measured = this.actual.throughput();
		if (Math.abs(measured - expected) > tolerance * expected) {
			failWithMessage("measured %s; expected %s ±%d %% — %s%n  run: %s", rps(measured), rps(expected),
					Math.round(tolerance * 100), limitStory(ceiling), this.actual.summary());
		}
		return this;
	}

	/** Median latency lies within {@code tolerance} (0.01 to 10) of {@code expected}. */
	public LoadResultAssert hasMedianLatencyNear(Duration expected, double tolerance) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("tolerance", tolerance, 0.01, 10.0);
		Duration median = this.actual.median();
		double off = Math.abs(median.toNanos() - expected.toNanos()) / (double) expected.toNanos();
		if (off > tolerance) {
			failWithMessage("median latency %s; expected %s ±%d %%%n  run: %s", Knobs.human(median),
					Knobs.human(expected), Math.round(tolerance * 100), this.actual.summary());
		}
		return this;
	}

	/**
	 * Mean latency lies within {@code tolerance} (0.01 to 10) of {@code expected}.
	 * Little's law is a statement about the mean: W = L / λ holds for it whatever order
	 * the queue serves in, the median only for a fair one.
	 */
	public LoadResultAssert hasMeanLatencyNear(Duration expected, double tolerance) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("tolerance", tolerance, 0.01, 10.0);
		Duration mean = this.actual.meanLatency();
		double off = Math.abs(mean.toNanos() - expected.toNanos()) / (double) expected.toNanos();
		if (off > tolerance) {
			failWithMessage("mean latency %s; expected %s ±%d %%%n  run: %s", Knobs.human(mean), Knobs.human(expected),
					Math.round(tolerance * 100), this.actual.summary());
		}
		return this;
	}

	/**
	 * Mean latency is at least {@code factor} (1 to 1000) times {@code serviceTime}:
	 * requests queued.
	 */
	public LoadResultAssert hasMeanLatencyAtLeast(double factor, Duration serviceTime) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("factor", factor, 1.0, 1000.0);
		Duration mean = this.actual.meanLatency();
		if (mean.toNanos() < factor * serviceTime.toNanos()) {
			failWithMessage(
					"mean latency %s is below %.1f × %s: requests did not queue for the capped resource%n  run: %s",
					Knobs.human(mean), factor, Knobs.human(serviceTime), this.actual.summary());
		}
		return this;
	}

	/**
	 * Median latency is at least {@code factor} (1 to 1000) times {@code serviceTime}:
	 * requests queued.
	 */
	public LoadResultAssert hasMedianLatencyAtLeast(double factor, Duration serviceTime) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("factor", factor, 1.0, 1000.0);
		Duration median = this.actual.median();
		if (median.toNanos() < factor * serviceTime.toNanos()) {
			failWithMessage(
					"median latency %s is below %.1f × %s: requests did not queue for the capped resource%n  run: %s",
					Knobs.human(median), factor, Knobs.human(serviceTime), this.actual.summary());
		}
		return this;
	}

	/**
	 * Throughput and latency say nothing when no request succeeded: the failure then
	 * names what the requests got ("every request failed: 412 × http-404"), not a
	 * throughput of 0.0.
	 */
	private void hasSomeSuccesses() {
		generatorWasNotTheCap();
		if (this.actual.succeeded() > 0) {
			return;
		}
		if (this.actual.errorCount() > 0) {
			failWithMessage("every request failed: %s — check the route and the service's log%n  run: %s",
					this.actual.errors()
						.entrySet()
						.stream()
						.sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
						.map((kind) -> kind.getValue() + " × " + kind.getKey())
						.collect(java.util.stream.Collectors.joining(", ")),
					this.actual.summary());
		}
		failWithMessage(
				"no request completed inside the %s window: the service took longer than the window to answer%n  run: %s",
				Knobs.human(this.actual.window()), this.actual.summary());
	}

	/**
	 * The load generator's self-check: figures of a run whose generator could not send
	 * faster (its busiest thread on the CPU 90 % of the run or more) measure the
	 * generator, so no throughput or latency assertion passes on them.
	 */
	private void generatorWasNotTheCap() {
		if (this.actual.generatorSaturated()) {
			failWithMessage(
					"the load generator, not the service, was the cap: its busiest thread was on the CPU %d %% of"
							+ " the run, so it could not send faster; give the test JVM more CPU or the load fewer users%n  run: %s",
					Math.round(this.actual.generatorBusy() * 100), this.actual.summary());
		}
	}

	/** No request failed inside the measurement window. */
	public LoadResultAssert hasNoErrors() {
		isNotNull();
		hasSomeSuccesses();
		if (this.actual.errorCount() > 0) {
			failWithMessage("expected no errors but %d requests failed: %s%n  run: %s", this.actual.errorCount(),
					this.actual.errors(), this.actual.summary());
		}
		return this;
	}

	private String limitStory(Ceiling ceiling) {
		if (this.actual.offeredRps().isPresent()) {
			return String.format(Locale.ROOT, "%s offered against %s (λ = L / W)",
					rps(this.actual.offeredRps().getAsDouble()), ceiling.explain());
		}
		int users = this.actual.users();
		if (ceiling.saturatedBy(users)) {
			return String.format(Locale.ROOT, "%d users share %s, so %s is the cap (λ = L / W)", users,
					ceiling.resource(), ceiling.explain());
		}
		return String.format(Locale.ROOT, "%d users fit in %d %s, so throughput should be users / latency = %s", users,
				ceiling.limit(), ceiling.resource(), rps(ceiling.throughputFor(users)));
	}

	private static String rps(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

}
