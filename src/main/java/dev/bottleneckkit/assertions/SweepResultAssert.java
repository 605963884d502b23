package dev.bottleneckkit.assertions;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link SweepResult}: which resource caps the service, and where
 * it does not. A failure prints the verdict and every step, so that the message alone
 * says what the sweep saw.
 */
public class SweepResultAssert extends AbstractAssert<SweepResultAssert, SweepResult> {

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
			failWithMessage("expected the cap to be %s, but the sweep says: %s%n%s", resource.description(),
					this.actual.verdict(), this.actual.table());
		}
		this.actual.confirmation()
			.filter((confirmation) -> !confirmation.confirmed())
			.ifPresent((confirmation) -> failWithMessage(
					"the sweep names %s, but the verdict was put to the test and did not hold: %s%n%s",
					resource.description(), confirmation.line(), this.actual.table()));
		return this;
	}

	/**
	 * The verdict was put to the test ({@code Sweep.confirming()}) and held: with the
	 * knob turned the ceiling rose, to within {@code tolerance} (0.01 to 1) of what the
	 * models predicted.
	 */
	public SweepResultAssert isConfirmedWithin(double tolerance) {
		isNotNull();
		Knobs.between("tolerance", tolerance, 0.01, 1.0);
		if (this.actual.confirmation().isEmpty()) {
			failWithMessage("the verdict was not put to the test (Sweep.confirming(), a verdict that names a resource"
					+ " with a knob): %s%n%s", this.actual.verdict(), this.actual.table());
			return this;
		}
		Confirmation confirmation = this.actual.confirmation().get();
		if (!confirmation.confirmed()) {
			failWithMessage("the verdict did not hold: %s%n%s", confirmation.line(), this.actual.table());
		}
		if (confirmation.predictionError() > tolerance) {
			failWithMessage(
					"the verdict held, but the ceiling with the knob turned is %d %% from its prediction,"
							+ " allowed %d %%: %s%n%s",
					Math.round(confirmation.predictionError() * 100), Math.round(tolerance * 100), confirmation.line(),
					this.actual.table());
		}
		return this;
	}

	/**
	 * The verdict was put to the test and did not hold: turning the knob left the ceiling
	 * where it was (a knob of a resource that is not the cap).
	 */
	public SweepResultAssert isNotConfirmed() {
		isNotNull();
		if (this.actual.confirmation().isEmpty() || this.actual.confirmation().get().confirmed()) {
			failWithMessage("expected the knob not to move the ceiling, but: %s%n%s",
					this.actual.confirmation().map(Confirmation::line).orElse("the verdict was not put to the test"),
					this.actual.table());
		}
		return this;
	}

	/**
	 * The sweep saturated and no resource's model explains its ceiling: the verdict names
	 * nothing (its candidates and what the probes could not see are in its line).
	 */
	public SweepResultAssert isUnexplained() {
		isNotNull();
		if (!(this.actual.verdict() instanceof Verdict.Unexplained)) {
			failWithMessage("expected no resource to explain the ceiling, but the sweep says: %s%n%s",
					this.actual.verdict(), this.actual.table());
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
			failWithMessage("expected the load generator to be the cap, but the sweep says: %s%n%s",
					this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/**
	 * The verdict does not name {@code resource}: a fix removed that cap, whatever else
	 * may cap the service.
	 */
	public SweepResultAssert isNotCappedBy(Resource resource) {
		isNotNull();
		everyStepMostlyAnswered();
		if (this.actual.verdict().cap().filter(resource::equals).isPresent()) {
			failWithMessage("expected %s not to be the cap any more, but the sweep says: %s%n%s",
					resource.description(), this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/** Throughput kept rising up to the sweep's last step: no cap within it. */
	public SweepResultAssert hasNoCap() {
		isNotNull();
		everyStepMostlyAnswered();
		if (this.actual.saturated()) {
			failWithMessage("expected no cap up to %d users, but the sweep says: %s%n%s", lastUsers(),
					this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/**
	 * The service is not capped below {@code rps} requests per second: the sweep reached
	 * that rate, and no knee below it. A sweep that stopped short of {@code rps} (too few
	 * users) says nothing about it and fails.
	 */
	public SweepResultAssert hasNoCapBelow(double rps) {
		isNotNull();
		Knobs.between("rps", rps, 0.001, 1_000_000.0);
		everyStepMostlyAnswered();
		if (!this.actual.saturated() && this.actual.ceiling() < rps) {
			failWithMessage(
					"expected no cap below %s, but the sweep never reached it: it stopped at %d users and %s, still"
							+ " rising; sweep up to more users (upToUsers) to reach %s%n%s",
					rate(rps), lastUsers(), rate(this.actual.ceiling()), rate(rps), this.actual.table());
		}
		if (this.actual.saturated() && this.actual.ceiling() < rps) {
			failWithMessage("expected no cap below %s, but the service stopped at %s: %s%n%s",
					String.format(Locale.ROOT, "%.1f rps", rps),
					String.format(Locale.ROOT, "%.1f rps", this.actual.ceiling()), this.actual.verdict(),
					this.actual.table());
		}
		return this;
	}

	/**
	 * The measured ceiling lies within {@code tolerance} (0.01 to 1) of what Little's law
	 * allows the named resource ({@code limit / W}): the resource explains the number,
	 * not only the shape.
	 */
	public SweepResultAssert hasCeilingNearItsModel(double tolerance) {
		isNotNull();
		Knobs.between("tolerance", tolerance, 0.01, 1.0);
		if (!(this.actual.verdict() instanceof Verdict.Capped capped)) {
			failWithMessage("the verdict names no resource, so it has no model to hold the ceiling against: %s%n%s",
					this.actual.verdict(), this.actual.table());
			return this;
		}
		if (capped.modelError() > tolerance) {
			failWithMessage("the ceiling is %d %% from its model, allowed %d %%: %s%n%s",
					Math.round(capped.modelError() * 100), Math.round(tolerance * 100), this.actual.verdict(),
					this.actual.table());
		}
		return this;
	}

	/**
	 * Held against the same sweep (by name) in {@code baseline}, e.g. main's last run:
	 * the same resource caps it, and its ceiling is no lower than the baseline's beyond 3
	 * × the spread of the steps at the ceiling (at least 5 %). Fails with the before /
	 * after lines; passes when the baseline has no such sweep (a new one).
	 */
	public SweepResultAssert comparedWith(Baseline baseline) {
		isNotNull();
		baseline.compare(this.actual)
			.filter(Comparison::regressed)
			.ifPresent((comparison) -> failWithMessage("%s regressed against the baseline %s:%s%n%s",
					this.actual.name(), comparison.baseline(), comparison.regressionLines(), this.actual.table()));
		return this;
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
	private void routeAnswersOneUser() {
		Step first = this.actual.steps().get(0);
		if (mostlyErrors(first)) {
			failWithMessage(
					"the route fails for one user, so the sweep says nothing about its cap: %s — check the route,"
							+ " its method and headers, and the service's log%n%s",
					errors(first), this.actual.table());
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
				failWithMessage(
						"with %d users most answers were errors (%s), so the sweep cannot say nothing caps the"
								+ " service: errors are how a cap that turns users away shows%n%s",
						step.users(), errors(step), this.actual.table());
			}
		}
	}

	private static boolean mostlyErrors(Step step) {
		long completed = step.result().completed();
		return completed == 0 || step.result().errorCount() >= MOSTLY_ERRORS * completed;
	}

	private static String errors(Step step) {
		if (step.result().completed() == 0) {
			return "no answer at all in " + Knobs.human(step.result().window());
		}
		return step.result().errorCount() + " of " + step.result().completed() + " answers failed: "
				+ step.result()
					.errors()
					.entrySet()
					.stream()
					.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
					.map((kind) -> kind.getValue() + " × " + kind.getKey())
					.collect(Collectors.joining(", "));
	}

	private static String rate(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

	private int lastUsers() {
		return this.actual.steps().stream().mapToInt(Step::users).max().orElse(0);
	}

}
