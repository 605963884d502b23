package dev.bottleneckkit.assertions;

import java.time.Duration;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.data.Percentage;

/**
 * AssertJ assertions on a {@link LoadResult} that explain the cap when they fail: the
 * message names the resource, its limit and latency, and what Little's law makes of them.
 */
public abstract class AbstractLoadResultAssert<SELF extends AbstractLoadResultAssert<SELF>>
		extends AbstractAssert<SELF, LoadResult> {

	protected AbstractLoadResultAssert(LoadResult actual, Class<?> selfType) {
		super(actual, selfType);
	}

	/**
	 * Throughput lies within {@code tolerance} (1 % to 100 %, e.g.
	 * {@code withPercentage(15)} for ±15 %) of what the ceiling allows this many users:
	 * min(users, limit) / latency.
	 */
	public SELF hasThroughputNear(Ceiling ceiling, Percentage tolerance) {
		isNotNull();
		hasSomeSuccesses();
		double share = Tolerances.share(tolerance, 100);
		double expected = ceiling.throughputFor(this.actual);
		double measured = this.actual.throughput();
		if (Math.abs(measured - expected) > share * expected) {
			throwAssertionError(
					ShouldHaveThroughputNear.shouldHaveThroughputNear(this.actual, ceiling, expected, share));
		}
		return this.myself;
	}

	/**
	 * Median latency lies within {@code tolerance} (1 % to 1000 %) of {@code expected}.
	 */
	public SELF hasMedianLatencyNear(Duration expected, Percentage tolerance) {
		isNotNull();
		hasSomeSuccesses();
		double share = Tolerances.share(tolerance, 1000);
		Duration median = this.actual.median();
		double off = Math.abs(median.toNanos() - expected.toNanos()) / (double) expected.toNanos();
		if (off > share) {
			throwAssertionError(ShouldHaveLatencyNear.shouldHaveMedianLatencyNear(this.actual, expected, share));
		}
		return this.myself;
	}

	/**
	 * Mean latency lies within {@code tolerance} (1 % to 1000 %) of {@code expected}.
	 * Little's law is a statement about the mean: W = L / λ holds for it whatever order
	 * the queue serves in, the median only for a fair one.
	 */
	public SELF hasMeanLatencyNear(Duration expected, Percentage tolerance) {
		isNotNull();
		hasSomeSuccesses();
		double share = Tolerances.share(tolerance, 1000);
		Duration mean = this.actual.meanLatency();
		double off = Math.abs(mean.toNanos() - expected.toNanos()) / (double) expected.toNanos();
		if (off > share) {
			throwAssertionError(ShouldHaveLatencyNear.shouldHaveMeanLatencyNear(this.actual, expected, share));
		}
		return this.myself;
	}

	/**
	 * Mean latency is at least {@code factor} (1 to 1000) times {@code serviceTime}:
	 * requests queued.
	 */
	public SELF hasMeanLatencyAtLeast(double factor, Duration serviceTime) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("factor", factor, 1.0, 1000.0);
		Duration mean = this.actual.meanLatency();
		if (mean.toNanos() < factor * serviceTime.toNanos()) {
			throwAssertionError(ShouldHaveQueued.shouldHaveMeanLatencyAtLeast(this.actual, factor, serviceTime));
		}
		return this.myself;
	}

	/**
	 * Median latency is at least {@code factor} (1 to 1000) times {@code serviceTime}:
	 * requests queued.
	 */
	public SELF hasMedianLatencyAtLeast(double factor, Duration serviceTime) {
		isNotNull();
		hasSomeSuccesses();
		Knobs.between("factor", factor, 1.0, 1000.0);
		Duration median = this.actual.median();
		if (median.toNanos() < factor * serviceTime.toNanos()) {
			throwAssertionError(ShouldHaveQueued.shouldHaveMedianLatencyAtLeast(this.actual, factor, serviceTime));
		}
		return this.myself;
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
		throwAssertionError(ShouldHaveSucceeded.shouldHaveSucceeded(this.actual));
	}

	/**
	 * The load generator's self-check: figures of a run whose generator could not send
	 * faster (its busiest thread on the CPU 90 % of the run or more) measure the
	 * generator, so no throughput or latency assertion passes on them.
	 */
	private void generatorWasNotTheCap() {
		if (this.actual.generatorSaturated()) {
			throwAssertionError(ShouldNotBeBoundByTheGenerator.shouldNotBeBoundByTheGenerator(this.actual));
		}
	}

	/** No request failed inside the measurement window. */
	public SELF hasNoErrors() {
		isNotNull();
		hasSomeSuccesses();
		if (this.actual.errorCount() > 0) {
			throwAssertionError(ShouldHaveNoErrors.shouldHaveNoErrors(this.actual));
		}
		return this.myself;
	}

}
