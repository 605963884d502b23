package dev.bottleneckkit.assertions;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * Every sweep assertion's first check: a step whose answers were mostly errors measured
 * the errors, so no claim about a cap is read off it.
 */
final class ShouldBeAnswered extends AssertionMessage {

	static ShouldBeAnswered shouldAnswerOneUser(SweepResult actual, Step first) {
		return new ShouldBeAnswered(
				"the route fails for one user, so the sweep says nothing about its cap: %s — check the route, its"
						+ " method and headers, and the service's log%n%s",
				errors(first), actual.table());
	}

	static ShouldBeAnswered shouldBeMostlyAnswered(SweepResult actual, Step step) {
		return new ShouldBeAnswered(
				"with %d users most answers were errors (%s), so the sweep cannot say nothing caps the service: errors"
						+ " are how a cap that turns users away shows%n%s",
				step.users(), errors(step), actual.table());
	}

	private static String errors(Step step) {
		if (step.result().completed() == 0) {
			return "no answer at all in " + Knobs.human(step.result().window());
		}
		return step.result().errorCount() + " of " + step.result().completed() + " answers failed: "
				+ byKind(step.result().errors());
	}

	private ShouldBeAnswered(String format, Object... arguments) {
		super(format, arguments);
	}

}
