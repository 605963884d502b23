package dev.bottleneckkit.assertions;

import java.util.Locale;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link SweepResult}: which resource caps the service, and where it does not. A failure
 * prints the verdict and every step, so that the message alone says what the sweep saw.
 */
public class SweepResultAssert extends AbstractAssert<SweepResultAssert, SweepResult> {

	public SweepResultAssert(SweepResult actual) {
		super(actual, SweepResultAssert.class);
	}

	/** The sweep saturated and its verdict names {@code resource}. */
	public SweepResultAssert isCappedBy(Resource resource) {
		isNotNull();
		if (this.actual.verdict().resource() != resource) {
			failWithMessage("expected the cap to be %s, but the sweep says: %s%n%s", resource.description(),
					this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/** The verdict does not name {@code resource}: a fix removed that cap, whatever else may cap the service. */
	public SweepResultAssert isNotCappedBy(Resource resource) {
		isNotNull();
		if (this.actual.verdict().resource() == resource) {
			failWithMessage("expected %s not to be the cap any more, but the sweep says: %s%n%s", resource.description(),
					this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/** Throughput kept rising up to the sweep's last step: no cap within it. */
	public SweepResultAssert hasNoCap() {
		isNotNull();
		if (this.actual.saturated()) {
			failWithMessage("expected no cap up to %d users, but the sweep says: %s%n%s", lastUsers(), this.actual.verdict(),
					this.actual.table());
		}
		return this;
	}

	/** No step below {@code rps} requests per second was the knee: the service is not capped below that rate. */
	public SweepResultAssert hasNoCapBelow(double rps) {
		isNotNull();
		Knobs.between("rps", rps, 0.001, 1_000_000.0);
		if (this.actual.saturated() && this.actual.ceiling() < rps) {
			failWithMessage("expected no cap below %s, but the service stopped at %s: %s%n%s",
					String.format(Locale.ROOT, "%.1f rps", rps), String.format(Locale.ROOT, "%.1f rps", this.actual.ceiling()),
					this.actual.verdict(), this.actual.table());
		}
		return this;
	}

	/**
	 * The measured ceiling lies within {@code tolerance} (0.01 to 1) of what Little's law allows the named resource
	 * ({@code limit / W}): the resource explains the number, not only the shape.
	 */
	public SweepResultAssert hasCeilingNearItsModel(double tolerance) {
		isNotNull();
		Knobs.between("tolerance", tolerance, 0.01, 1.0);
		if (!this.actual.verdict().hasModel()) {
			failWithMessage("the verdict has no model to hold the ceiling against: %s%n%s", this.actual.verdict(),
					this.actual.table());
		}
		if (this.actual.verdict().modelError() > tolerance) {
			failWithMessage("the ceiling is %d %% from its model, allowed %d %%: %s%n%s",
					Math.round(this.actual.verdict().modelError() * 100), Math.round(tolerance * 100), this.actual.verdict(),
					this.actual.table());
		}
		return this;
	}

	private int lastUsers() {
		return this.actual.steps().stream().mapToInt(Step::users).max().orElse(0);
	}

}
