package dev.bottleneckkit.assertions;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.SweepResult;

/** {@code isNotCappedBy}: the verdict still names the resource a fix was to remove. */
final class ShouldNotBeCappedBy extends AssertionMessage {

	static ShouldNotBeCappedBy shouldNotBeCappedBy(SweepResult actual, Resource resource) {
		return new ShouldNotBeCappedBy(actual, resource);
	}

	private ShouldNotBeCappedBy(SweepResult actual, Resource resource) {
		super("expected %s not to be the cap any more, but the sweep says: %s%n%s", resource.description(),
				actual.verdict(), actual.table());
	}

}
