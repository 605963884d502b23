package dev.bottleneckkit.assertions;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;

/**
 * {@code hasThroughputNear}: the throughput lies outside the band, and the message says
 * what Little's law makes of the ceiling for this many users.
 */
final class ShouldHaveThroughputNear extends AssertionMessage {

	static ShouldHaveThroughputNear shouldHaveThroughputNear(LoadResult actual, Ceiling ceiling, double expected,
			double allowed) {
		return new ShouldHaveThroughputNear(actual, ceiling, expected, allowed);
	}

	private ShouldHaveThroughputNear(LoadResult actual, Ceiling ceiling, double expected, double allowed) {
		super("measured %s; expected %s ±%d %% — %s%n  run: %s", rps(actual.throughput()), rps(expected),
				percent(allowed), limitStory(actual, ceiling), actual.summary());
	}

	private static String limitStory(LoadResult actual, Ceiling ceiling) {
		if (actual.offeredRps().isPresent()) {
			return rps(actual.offeredRps().getAsDouble()) + " offered against " + ceiling.explain() + " (λ = L / W)";
		}
		int users = actual.users();
		if (ceiling.saturatedBy(users)) {
			return users + " users share " + ceiling.resource() + ", so " + ceiling.explain()
					+ " is the cap (λ = L / W)";
		}
		return users + " users fit in " + ceiling.limit() + " " + ceiling.resource()
				+ ", so throughput should be users / latency = " + rps(ceiling.throughputFor(users));
	}

}
