package dev.bottleneckkit.assertions;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;

/**
 * Every throughput and latency assertion's first check: no request succeeded, so the
 * message names what the requests got ("every request failed: 412 × http-404"), not a
 * throughput of 0.0.
 */
final class ShouldHaveSucceeded extends AssertionMessage {

	static ShouldHaveSucceeded shouldHaveSucceeded(LoadResult actual) {
		if (actual.errorCount() > 0) {
			return new ShouldHaveSucceeded(
					"every request failed: %s — check the route and the service's log%n  run: %s",
					byKind(actual.errors()), actual.summary());
		}
		return new ShouldHaveSucceeded(
				"no request completed inside the %s window: the service took longer than the window to answer%n"
						+ "  run: %s",
				Knobs.human(actual.window()), actual.summary());
	}

	private ShouldHaveSucceeded(String format, Object... arguments) {
		super(format, arguments);
	}

}
