package dev.bottleneckkit.assertions;

import java.time.Duration;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;

/**
 * {@code hasMedianLatencyNear} and {@code hasMeanLatencyNear}: the latency lies outside
 * the band.
 */
final class ShouldHaveLatencyNear extends AssertionMessage {

	static ShouldHaveLatencyNear shouldHaveMedianLatencyNear(LoadResult actual, Duration expected, double allowed) {
		return new ShouldHaveLatencyNear("median", actual.median(), expected, allowed, actual);
	}

	static ShouldHaveLatencyNear shouldHaveMeanLatencyNear(LoadResult actual, Duration expected, double allowed) {
		return new ShouldHaveLatencyNear("mean", actual.meanLatency(), expected, allowed, actual);
	}

	private ShouldHaveLatencyNear(String statistic, Duration latency, Duration expected, double allowed,
			LoadResult actual) {
		super("%s latency %s; expected %s ±%d %%%n  run: %s", statistic, Knobs.human(latency), Knobs.human(expected),
				percent(allowed), actual.summary());
	}

}
