package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;

/**
 * {@code hasCeilingNearItsModel}: the verdict has no model, or the ceiling lies farther
 * from it than allowed.
 */
final class ShouldHaveCeilingNearItsModel extends AssertionMessage {

	static ShouldHaveCeilingNearItsModel shouldHaveAModel(SweepResult actual) {
		return new ShouldHaveCeilingNearItsModel(
				"the verdict names no resource, so it has no model to hold the ceiling against: %s%n%s",
				actual.verdict(), actual.table());
	}

	static ShouldHaveCeilingNearItsModel shouldHaveCeilingNearItsModel(SweepResult actual, Verdict.Capped capped,
			double allowed) {
		return new ShouldHaveCeilingNearItsModel("the ceiling is %d %% from its model, allowed %d %%: %s%n%s",
				percent(capped.modelError()), percent(allowed), capped, actual.table());
	}

	private ShouldHaveCeilingNearItsModel(String format, Object... arguments) {
		super(format, arguments);
	}

}
