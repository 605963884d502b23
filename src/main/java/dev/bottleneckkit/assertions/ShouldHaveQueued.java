package dev.bottleneckkit.assertions;

import java.time.Duration;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;

/**
 * {@code hasMeanLatencyAtLeast} and {@code hasMedianLatencyAtLeast}: the latency stayed
 * near the service time, so requests did not queue.
 */
final class ShouldHaveQueued extends AssertionMessage {

	static ShouldHaveQueued shouldHaveMeanLatencyAtLeast(LoadResult actual, double factor, Duration serviceTime) {
		return new ShouldHaveQueued("mean", actual.meanLatency(), factor, serviceTime, actual);
	}

	static ShouldHaveQueued shouldHaveMedianLatencyAtLeast(LoadResult actual, double factor, Duration serviceTime) {
		return new ShouldHaveQueued("median", actual.median(), factor, serviceTime, actual);
	}

	private ShouldHaveQueued(String statistic, Duration latency, double factor, Duration serviceTime,
			LoadResult actual) {
		super("%s latency %s is below %.1f × %s: requests did not queue for the capped resource%n  run: %s", statistic,
				Knobs.human(latency), factor, Knobs.human(serviceTime), actual.summary());
	}

}
