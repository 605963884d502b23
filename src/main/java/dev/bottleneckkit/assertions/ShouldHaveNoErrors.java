package dev.bottleneckkit.assertions;

import dev.bottleneckkit.load.LoadResult;

/** {@code hasNoErrors}: requests failed inside the window, counted by kind. */
final class ShouldHaveNoErrors extends AssertionMessage {

	static ShouldHaveNoErrors shouldHaveNoErrors(LoadResult actual) {
		return new ShouldHaveNoErrors(actual);
	}

	private ShouldHaveNoErrors(LoadResult actual) {
		super("expected no errors but %d requests failed: %s%n  run: %s", actual.errorCount(), byKind(actual.errors()),
				actual.summary());
	}

}
