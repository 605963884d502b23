package dev.bottleneckkit.assertions;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.run.RunWide;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.data.Percentage;

/**
 * AssertJ assertions on a {@link SweepResult}: which resource caps the service, and where
 * it does not. A failure prints the verdict and every step, so that the message alone
 * says what the sweep saw.
 */
public abstract class AbstractSweepResultAssert<SELF extends AbstractSweepResultAssert<SELF>>
		extends AbstractAssert<SELF, SweepResult> {

	protected AbstractSweepResultAssert(SweepResult actual, Class<?> selfType) {
		super(actual, selfType);
	}

	/**
	 * The sweep saturated and its verdict names {@code resource}, with the model that
	 * explains the ceiling.
	 */
	public SELF isCappedBy(Resource resource) {
		isNotNull();
		routeAnswersOneUser();
		if (this.actual.verdict().cap().filter(resource::equals).isEmpty()) {
			throwAssertionError(ShouldBeCappedBy.shouldBeCappedBy(this.actual, resource));
		}
		this.actual.confirmation()
			.filter((confirmation) -> !confirmation.confirmed())
			.ifPresent((confirmation) -> throwAssertionError(
					ShouldBeCappedBy.shouldHoldWhenPutToTheTest(this.actual, resource, confirmation)));
		return this.myself;
	}

	/**
	 * The verdict was put to the test ({@code Sweep.confirming()}) and held: with the
	 * knob turned the ceiling moved its way (up for a raised limit, down for a lowered
	 * one), to within {@code tolerance} (1 % to 100 %, {@code withPercentage(10)}) of
	 * what the models predicted.
	 */
	public SELF isConfirmedWithin(Percentage tolerance) {
		isNotNull();
		double share = Tolerances.share(tolerance, 100);
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
		return this.myself;
	}

	/**
	 * The verdict was put to the test and did not hold: turning the knob left the ceiling
	 * where it was (a knob of a resource that is not the cap).
	 */
	public SELF isNotConfirmed() {
		isNotNull();
		if (this.actual.confirmation().isEmpty() || this.actual.confirmation().get().confirmed()) {
			throwAssertionError(ShouldNotBeConfirmed.shouldNotBeConfirmed(this.actual));
		}
		return this.myself;
	}

	/**
	 * The search ({@code Sweep.reaching(rps)}) found a limit of the capped resource that
	 * reaches its target, in at most {@code starts} (1 to 10) starts of the service.
	 */
	public SELF reachedItsTargetWithin(int starts) {
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
		return this.myself;
	}

	/**
	 * The sweep saturated and no resource's model explains its ceiling: the verdict names
	 * nothing (its candidates and what the probes could not see are in its line).
	 */
	public SELF isUnexplained() {
		isNotNull();
		if (!(this.actual.verdict() instanceof Verdict.Unexplained)) {
			throwAssertionError(ShouldBeUnexplained.shouldBeUnexplained(this.actual));
		}
		return this.myself;
	}

	/**
	 * The load generator, not the service, was the cap: the sweep says nothing of the
	 * service.
	 */
	public SELF isBoundByTheGenerator() {
		isNotNull();
		if (!(this.actual.verdict() instanceof Verdict.GeneratorBound)) {
			throwAssertionError(ShouldBeBoundByTheGenerator.shouldBeBoundByTheGenerator(this.actual));
		}
		return this.myself;
	}

	/**
	 * The verdict does not name {@code resource}: a fix removed that cap, whatever else
	 * may cap the service.
	 */
	public SELF isNotCappedBy(Resource resource) {
		isNotNull();
		everyStepMostlyAnswered();
		if (this.actual.verdict().cap().filter(resource::equals).isPresent()) {
			throwAssertionError(ShouldNotBeCappedBy.shouldNotBeCappedBy(this.actual, resource));
		}
		return this.myself;
	}

	/** Throughput kept rising up to the sweep's last step: no cap within it. */
	public SELF hasNoCap() {
		isNotNull();
		everyStepMostlyAnswered();
		if (this.actual.saturated()) {
			throwAssertionError(ShouldHaveNoCap.shouldHaveNoCap(this.actual));
		}
		return this.myself;
	}

	/**
	 * The service is not capped below {@code rps} requests per second: the sweep reached
	 * that rate, and no knee below it. A sweep that stopped short of {@code rps} (too few
	 * users) says nothing about it and fails.
	 */
	public SELF hasNoCapBelow(double rps) {
		isNotNull();
		Knobs.between("rps", rps, 0.001, 1_000_000.0);
		everyStepMostlyAnswered();
		if (!this.actual.saturated() && this.actual.ceiling() < rps) {
			throwAssertionError(ShouldHaveNoCap.shouldReach(this.actual, rps));
		}
		if (this.actual.saturated() && this.actual.ceiling() < rps) {
			throwAssertionError(ShouldHaveNoCap.shouldHaveNoCapBelow(this.actual, rps));
		}
		return this.myself;
	}

	/**
	 * The measured ceiling lies within {@code tolerance} (1 % to 100 %) of what Little's
	 * law allows the named resource ({@code limit / W}): the resource explains the
	 * number, not only the shape.
	 */
	public SELF hasCeilingNearItsModel(Percentage tolerance) {
		isNotNull();
		double share = Tolerances.share(tolerance, 100);
		if (!(this.actual.verdict() instanceof Verdict.Capped capped)) {
			throwAssertionError(ShouldHaveCeilingNearItsModel.shouldHaveAModel(this.actual));
			return this.myself;
		}
		if (capped.modelError() > share) {
			throwAssertionError(
					ShouldHaveCeilingNearItsModel.shouldHaveCeilingNearItsModel(this.actual, capped, share));
		}
		return this.myself;
	}

	/**
	 * {@link #hasNotRegressedAgainstItsBase(Percentage)} at the bound the guard told
	 * apart, {@code Sweep.tolerating} (2 % unless told): where it stopped.
	 */
	public SELF hasNotRegressedAgainstItsBase() {
		isNotNull();
		if (this.actual.comparison().isEmpty()) {
			return withoutABase();
		}
		return hasNotRegressedAgainstItsBase(Percentage.withPercentage(100 * this.actual.comparison().get().bound()));
	}

	/**
	 * Measured side by side against its base image ({@code against(image)} or
	 * {@code -Dbottleneck.against}), no figure regressed beyond {@code bound} (1 % to 100
	 * %, {@code withPercentage(5)}; name it on the sweep too, {@code Sweep.tolerating},
	 * for the guard stops where it tells its own bound apart): fails only when a figure's
	 * 95 % interval lies wholly beyond it (a throughput below 1 − bound of the base's, a
	 * p99 above 1 + bound), or when the cap moved to another resource, and when the sweep
	 * had no base. A difference the blocks could not resolve within the guard's budget
	 * fails too: an interval that reaches across the bound is unresolved, never green.
	 * Where the run says it has no base ({@code -Dbottleneck.against=none}, as the guard
	 * workflow does on a push to main), it is skipped with one line that says so, and the
	 * sweep's other assertions still hold it.
	 */
	public SELF hasNotRegressedAgainstItsBase(Percentage bound) {
		isNotNull();
		double share = Tolerances.share(bound, 100);
		if (this.actual.comparison().isEmpty()) {
			return withoutABase();
		}
		ABComparison comparison = this.actual.comparison().get();
		if (comparison.regressed(share)) {
			throwAssertionError(ShouldNotHaveRegressedAgainstItsBase.shouldNotHaveRegressed(comparison, share));
		}
		if (!comparison.resolved(share)) {
			throwAssertionError(ShouldNotHaveRegressedAgainstItsBase.shouldBeResolved(comparison, share));
		}
		return this.myself;
	}

	/**
	 * Held against the same sweep (by name) in {@code baseline}, e.g. main's last run:
	 * the same resource caps it, and its ceiling is no lower than the baseline's beyond 3
	 * × the spread of the steps at the ceiling (at least 5 %). Fails with the before /
	 * after lines; passes when the baseline has no such sweep (a new one).
	 */
	public SELF comparedWith(Baseline baseline) {
		isNotNull();
		baseline.compare(this.actual)
			.filter(Comparison::regressed)
			.ifPresent((comparison) -> throwAssertionError(ShouldNotRegress.shouldNotRegress(this.actual, comparison)));
		return this.myself;
	}

	/**
	 * A step whose answers are mostly errors measures the errors: this share of failed
	 * answers or more.
	 */
	static final double MOSTLY_ERRORS = 0.5;

	/**
	 * A route that fails for one user is broken, not capped: every claim about its cap
	 * would be read off errors (a 404 or 401 for every request reads "no cap").
	 */
	/**
	 * No comparison: skipped with its line where the run says it has no base, else
	 * failed.
	 */
	private SELF withoutABase() {
		if (RunWide.saysItHasNoBase()) {
			Console.line(this.actual.name() + ": not held against a base: the run has none (-Dbottleneck.against=none,"
					+ " as on a push to main); the sweep's own assertions still hold it");
			return this.myself;
		}
		throwAssertionError(ShouldNotHaveRegressedAgainstItsBase.shouldHaveABase(this.actual));
		return this.myself;
	}

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
