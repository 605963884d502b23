package dev.bottleneckkit.assertions;

import java.time.Duration;
import java.util.Locale;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Percentage;

/**
 * Entry point for the kit's assertions, in the style of AssertJ's {@code Assertions}: a
 * static import of {@code assertThat} gives the kit's assertions for its types and
 * AssertJ's for everything else.
 */
public class BottleneckAssertions extends Assertions {

	/**
	 * Assertions on a load run: throughput against a {@code Ceiling}, latency, errors by
	 * kind.
	 */
	public static LoadResultAssert assertThat(LoadResult actual) {
		return new LoadResultAssert(actual);
	}

	/**
	 * Assertions on a sweep: the resource its verdict names, where the service is not
	 * capped.
	 */
	public static SweepResultAssert assertThat(SweepResult actual) {
		return new SweepResultAssert(actual);
	}

	/** Assertions on pinned-thread events: none, at least n, every stack in some code. */
	public static PinningReportAssert assertThat(PinningReport actual) {
		return new PinningReportAssert(actual);
	}

	/**
	 * AssertJ assertions on a {@link SweepResult}: which resource caps the service, and
	 * where it does not. A failure prints the verdict and every step, so that the message
	 * alone says what the sweep saw.
	 */
	public static class SweepResultAssert extends AbstractAssert<SweepResultAssert, SweepResult> {

		public SweepResultAssert(SweepResult actual) {
			super(actual, SweepResultAssert.class);
		}

		/**
		 * The sweep saturated and its verdict names {@code resource}, with the model that
		 * explains the ceiling.
		 */
		public SweepResultAssert isCappedBy(Resource resource) {
			isNotNull();
			routeAnswersOneUser();
			if (this.actual.verdict().cap().filter(resource::equals).isEmpty()) {
				throwAssertionError(ShouldBeCappedBy.shouldBeCappedBy(this.actual, resource));
			}
			this.actual.confirmation()
				.filter((confirmation) -> !confirmation.confirmed())
				.ifPresent((confirmation) -> throwAssertionError(
						ShouldBeCappedBy.shouldHoldWhenPutToTheTest(this.actual, resource, confirmation)));
			return this;
		}

		/**
		 * The verdict was put to the test ({@code Sweep.confirming()}) and held: with the
		 * knob turned the ceiling moved its way (up for a raised limit, down for a
		 * lowered one), to within {@code tolerance} (1 % to 100 %,
		 * {@code withPercentage(10)}) of what the models predicted.
		 */
		public SweepResultAssert isConfirmedWithin(Percentage tolerance) {
			isNotNull();
			double share = share(tolerance, 100);
			if (this.actual.confirmation().isEmpty()) {
				throwAssertionError(ShouldBeConfirmed.shouldBePutToTheTest(this.actual));
			}
			Confirmation confirmation = this.actual.confirmation().get();
			if (!confirmation.confirmed()) {
				throwAssertionError(ShouldBeConfirmed.shouldHold(this.actual, confirmation));
			}
			if (confirmation.predictionError() > share) {
				throwAssertionError(ShouldBeConfirmed.shouldBeNearItsPrediction(this.actual, confirmation, share));
			}
			return this;
		}

		/**
		 * The verdict was put to the test and did not hold: turning the knob left the
		 * ceiling where it was (a knob of a resource that is not the cap).
		 */
		public SweepResultAssert isNotConfirmed() {
			isNotNull();
			if (this.actual.confirmation().isEmpty() || this.actual.confirmation().get().confirmed()) {
				throwAssertionError(ShouldNotBeConfirmed.shouldNotBeConfirmed(this.actual));
			}
			return this;
		}

		/**
		 * The search ({@code Sweep.reaching(rps)}) found a limit of the capped resource
		 * that reaches its target, in at most {@code starts} (1 to 10) starts of the
		 * service.
		 */
		public SweepResultAssert reachedItsTargetWithin(int starts) {
			isNotNull();
			Knobs.between("starts", starts, 1, 10);
			if (this.actual.search().isEmpty()) {
				throwAssertionError(ShouldReachItsTarget.shouldHaveSearched(this.actual));
			}
			Search search = this.actual.search().get();
			if (search.found().isEmpty()) {
				throwAssertionError(ShouldReachItsTarget.shouldFindALimit(this.actual, search));
			}
			if (search.starts() > starts) {
				throwAssertionError(ShouldReachItsTarget.shouldTakeAtMost(this.actual, search, starts));
			}
			return this;
		}

		/**
		 * The sweep saturated and no resource's model explains its ceiling: the verdict
		 * names nothing (its candidates and what the probes could not see are in its
		 * line).
		 */
		public SweepResultAssert isUnexplained() {
			isNotNull();
			if (!(this.actual.verdict() instanceof Verdict.Unexplained)) {
				throwAssertionError(ShouldBeUnexplained.shouldBeUnexplained(this.actual));
			}
			return this;
		}

		/**
		 * The load generator, not the service, was the cap: the sweep says nothing of the
		 * service.
		 */
		public SweepResultAssert isBoundByTheGenerator() {
			isNotNull();
			if (!(this.actual.verdict() instanceof Verdict.GeneratorBound)) {
				throwAssertionError(ShouldBeBoundByTheGenerator.shouldBeBoundByTheGenerator(this.actual));
			}
			return this;
		}

		/**
		 * The verdict does not name {@code resource}: a fix removed that cap, whatever
		 * else may cap the service.
		 */
		public SweepResultAssert isNotCappedBy(Resource resource) {
			isNotNull();
			everyStepMostlyAnswered();
			if (this.actual.verdict().cap().filter(resource::equals).isPresent()) {
				throwAssertionError(ShouldNotBeCappedBy.shouldNotBeCappedBy(this.actual, resource));
			}
			return this;
		}

		/** Throughput kept rising up to the sweep's last step: no cap within it. */
		public SweepResultAssert hasNoCap() {
			isNotNull();
			everyStepMostlyAnswered();
			if (this.actual.saturated()) {
				throwAssertionError(ShouldHaveNoCap.shouldHaveNoCap(this.actual));
			}
			return this;
		}

		/**
		 * The service is not capped below {@code rps} requests per second: the sweep
		 * reached that rate, and no knee below it. A sweep that stopped short of
		 * {@code rps} (too few users) says nothing about it and fails.
		 */
		public SweepResultAssert hasNoCapBelow(double rps) {
			isNotNull();
			Knobs.between("rps", rps, 0.001, 1_000_000.0);
			everyStepMostlyAnswered();
			if (!this.actual.saturated() && this.actual.ceiling() < rps) {
				throwAssertionError(ShouldHaveNoCap.shouldReach(this.actual, rps));
			}
			if (this.actual.saturated() && this.actual.ceiling() < rps) {
				throwAssertionError(ShouldHaveNoCap.shouldHaveNoCapBelow(this.actual, rps));
			}
			return this;
		}

		/**
		 * The measured ceiling lies within {@code tolerance} (1 % to 100 %) of what
		 * Little's law allows the named resource ({@code limit / W}): the resource
		 * explains the number, not only the shape.
		 */
		public SweepResultAssert hasCeilingNearItsModel(Percentage tolerance) {
			isNotNull();
			double share = share(tolerance, 100);
			if (!(this.actual.verdict() instanceof Verdict.Capped capped)) {
				throwAssertionError(ShouldHaveCeilingNearItsModel.shouldHaveAModel(this.actual));
				return this;
			}
			if (capped.modelError() > share) {
				throwAssertionError(
						ShouldHaveCeilingNearItsModel.shouldHaveCeilingNearItsModel(this.actual, capped, share));
			}
			return this;
		}

		/**
		 * Held against the same sweep (by name) in {@code baseline}, e.g. main's last
		 * run: the same resource caps it, and its ceiling is no lower than the baseline's
		 * beyond 3 × the spread of the steps at the ceiling (at least 5 %). Fails with
		 * the before / after lines; passes when the baseline has no such sweep (a new
		 * one).
		 */
		public SweepResultAssert comparedWith(Baseline baseline) {
			isNotNull();
			baseline.compare(this.actual)
				.filter(Comparison::regressed)
				.ifPresent((comparison) -> throwAssertionError(
						ShouldNotRegress.shouldNotRegress(this.actual, comparison)));
			return this;
		}

		/**
		 * A step whose answers are mostly errors measures the errors: this share of
		 * failed answers or more.
		 */
		static final double MOSTLY_ERRORS = 0.5;

		/**
		 * A route that fails for one user is broken, not capped: every claim about its
		 * cap would be read off errors (a 404 or 401 for every request reads "no cap").
		 */
		private void routeAnswersOneUser() {
			Step first = this.actual.steps().get(0);
			if (mostlyErrors(first)) {
				throwAssertionError(ShouldBeAnswered.shouldAnswerOneUser(this.actual, first));
			}
		}

		/**
		 * No step whose answers were mostly errors: a claim that nothing caps the service
		 * needs answers.
		 */
		private void everyStepMostlyAnswered() {
			routeAnswersOneUser();
			for (Step step : this.actual.steps()) {
				if (mostlyErrors(step)) {
					throwAssertionError(ShouldBeAnswered.shouldBeMostlyAnswered(this.actual, step));
				}
			}
		}

		private static boolean mostlyErrors(Step step) {
			long completed = step.result().completed();
			return completed == 0 || step.result().errorCount() >= MOSTLY_ERRORS * completed;
		}

	}

	/**
	 * AssertJ assertions on a {@link LoadResult} that explain the cap when they fail: the
	 * message names the resource, its limit and latency, and what Little's law makes of
	 * them.
	 */
	public static class LoadResultAssert extends AbstractAssert<LoadResultAssert, LoadResult> {

		public LoadResultAssert(LoadResult actual) {
			super(actual, LoadResultAssert.class);
		}

		/**
		 * Throughput lies within {@code tolerance} (1 % to 100 %, e.g.
		 * {@code withPercentage(15)} for ±15 %) of what the ceiling allows this many
		 * users: min(users, limit) / latency.
		 */
		public LoadResultAssert hasThroughputNear(Ceiling ceiling, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 100);
			double expected = ceiling.throughputFor(this.actual);
			double measured = this.actual.throughput();
			if (Math.abs(measured - expected) > share * expected) {
				throwAssertionError(
						ShouldHaveThroughputNear.shouldHaveThroughputNear(this.actual, ceiling, expected, share));
			}
			return this;
		}

		/**
		 * Median latency lies within {@code tolerance} (1 % to 1000 %) of
		 * {@code expected}.
		 */
		public LoadResultAssert hasMedianLatencyNear(Duration expected, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 1000);
			Duration median = this.actual.median();
			double off = Math.abs(median.toNanos() - expected.toNanos()) / (double) expected.toNanos();
			if (off > share) {
				throwAssertionError(ShouldHaveLatencyNear.shouldHaveMedianLatencyNear(this.actual, expected, share));
			}
			return this;
		}

		/**
		 * Mean latency lies within {@code tolerance} (1 % to 1000 %) of {@code expected}.
		 * Little's law is a statement about the mean: W = L / λ holds for it whatever
		 * order the queue serves in, the median only for a fair one.
		 */
		public LoadResultAssert hasMeanLatencyNear(Duration expected, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 1000);
			Duration mean = this.actual.meanLatency();
			double off = Math.abs(mean.toNanos() - expected.toNanos()) / (double) expected.toNanos();
			if (off > share) {
				throwAssertionError(ShouldHaveLatencyNear.shouldHaveMeanLatencyNear(this.actual, expected, share));
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
				throwAssertionError(ShouldHaveQueued.shouldHaveMeanLatencyAtLeast(this.actual, factor, serviceTime));
			}
			return this;
		}

		/**
		 * Median latency is at least {@code factor} (1 to 1000) times
		 * {@code serviceTime}: requests queued.
		 */
		public LoadResultAssert hasMedianLatencyAtLeast(double factor, Duration serviceTime) {
			isNotNull();
			hasSomeSuccesses();
			Knobs.between("factor", factor, 1.0, 1000.0);
			Duration median = this.actual.median();
			if (median.toNanos() < factor * serviceTime.toNanos()) {
				throwAssertionError(ShouldHaveQueued.shouldHaveMedianLatencyAtLeast(this.actual, factor, serviceTime));
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
			throwAssertionError(ShouldHaveSucceeded.shouldHaveSucceeded(this.actual));
		}

		/**
		 * The load generator's self-check: figures of a run whose generator could not
		 * send faster (its busiest thread on the CPU 90 % of the run or more) measure the
		 * generator, so no throughput or latency assertion passes on them.
		 */
		private void generatorWasNotTheCap() {
			if (this.actual.generatorSaturated()) {
				throwAssertionError(ShouldNotBeBoundByTheGenerator.shouldNotBeBoundByTheGenerator(this.actual));
			}
		}

		/** No request failed inside the measurement window. */
		public LoadResultAssert hasNoErrors() {
			isNotNull();
			hasSomeSuccesses();
			if (this.actual.errorCount() > 0) {
				throwAssertionError(ShouldHaveNoErrors.shouldHaveNoErrors(this.actual));
			}
			return this;
		}

	}

	/**
	 * AssertJ assertions on a {@link PinningReport}; failures print the culprits and the
	 * longest pinned stack.
	 */
	public static class PinningReportAssert extends AbstractAssert<PinningReportAssert, PinningReport> {

		private static final int FRAMES_SHOWN = 15;

		public PinningReportAssert(PinningReport actual) {
			super(actual, PinningReportAssert.class);
		}

		/** No virtual thread was pinned past the recording threshold. */
		public PinningReportAssert hasNoPinnedThreads() {
			isNotNull();
			if (this.actual.count() > 0) {
				throwAssertionError(ShouldHaveNoPinnedThreads.shouldHaveNoPinnedThreads(this.actual, FRAMES_SHOWN));
			}
			return this;
		}

		/**
		 * No pinned event was caused by code starting with {@code prefix}: no event's
		 * {@linkplain dev.bottleneckkit.probe.PinnedEvent#culprit() culprit} (the first
		 * frame outside the JDK, the code that blocked while pinned) lies there. Use it
		 * where the claim is about one library's locks and the JDK still pins elsewhere,
		 * e.g. JDK 24+ while a virtual thread waits for another thread to load a class.
		 */
		public PinningReportAssert hasNoPinsCausedBy(String prefix) {
			isNotNull();
			long there = this.actual.events().stream().filter((event) -> event.culprit().startsWith(prefix)).count();
			if (there > 0) {
				throwAssertionError(
						ShouldHaveNoPinsCausedBy.shouldHaveNoPinsCausedBy(this.actual, prefix, there, FRAMES_SHOWN));
			}
			return this;
		}

		/** At least {@code events} (1 to 10^9) pinned events were recorded. */
		public PinningReportAssert hasPinnedAtLeast(int events) {
			isNotNull();
			Knobs.between("events", events, 1, 1_000_000_000);
			if (this.actual.count() < events) {
				throwAssertionError(ShouldHavePinnedAtLeast.shouldHavePinnedAtLeast(this.actual, events, FRAMES_SHOWN));
			}
			return this;
		}

		/**
		 * Every pinned event's stack holds a frame starting with {@code prefix}, e.g.
		 * {@code "com.mysql.cj."}.
		 */
		public PinningReportAssert hasEveryPinInCode(String prefix) {
			isNotNull();
			long elsewhere = this.actual.events()
				.stream()
				.filter((event) -> event.frames().stream().noneMatch((frame) -> frame.startsWith(prefix)))
				.count();
			if (this.actual.count() == 0 || elsewhere > 0) {
				throwAssertionError(ShouldHaveEveryPinInCode.shouldHaveEveryPinInCode(this.actual, prefix, elsewhere,
						FRAMES_SHOWN));
			}
			return this;
		}

	}

	/**
	 * A tolerance as a share (15 % → 0.15), between 1 % and {@code most} %: AssertJ's
	 * {@code Percentage} already refuses a negative one.
	 */
	private static double share(Percentage tolerance, double most) {
		if (tolerance.value < 1) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"a tolerance of %s %% is below the noise of any run: withPercentage(15) is ±15 %%",
					tolerance.value));
		}
		Knobs.between("tolerance (%)", tolerance.value, 1, most);
		return tolerance.value / 100;
	}

}
