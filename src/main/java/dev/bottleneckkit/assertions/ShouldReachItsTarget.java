package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code reachedItsTargetWithin}: no limit was searched for, none reached the target, or
 * the search took more starts than allowed.
 */
final class ShouldReachItsTarget extends AssertionMessage {

	static ShouldReachItsTarget shouldHaveSearched(SweepResult actual) {
		return new ShouldReachItsTarget(
				"no limit was searched for (Sweep.reaching(rps), a verdict that names a resource): %s%n%s",
				actual.verdict(), actual.table());
	}

	static ShouldReachItsTarget shouldFindALimit(SweepResult actual, Search search) {
		return new ShouldReachItsTarget("no limit reached the target: %s%n%s", search.line(), actual.table());
	}

	static ShouldReachItsTarget shouldTakeAtMost(SweepResult actual, Search search, int starts) {
		return new ShouldReachItsTarget("the search took %d starts, allowed %d: %s%n%s", search.starts(), starts,
				search.line(), actual.table());
	}

	private ShouldReachItsTarget(String format, Object... arguments) {
		super(format, arguments);
	}

}
