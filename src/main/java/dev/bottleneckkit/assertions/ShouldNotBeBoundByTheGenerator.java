package dev.bottleneckkit.assertions;

import dev.bottleneckkit.load.LoadResult;

/**
 * The load generator's self-check before any throughput or latency assertion: its busiest
 * thread was on the CPU 90 % of the run or more, so the figures measure the generator.
 */
final class ShouldNotBeBoundByTheGenerator extends AssertionMessage {

	static ShouldNotBeBoundByTheGenerator shouldNotBeBoundByTheGenerator(LoadResult actual) {
		return new ShouldNotBeBoundByTheGenerator(actual);
	}

	private ShouldNotBeBoundByTheGenerator(LoadResult actual) {
		super("the load generator, not the service, was the cap: its busiest thread was on the CPU %d %% of the run, so"
				+ " it could not send faster; give the test JVM more CPU or the load fewer users%n  run: %s",
				percent(actual.generatorBusy()), actual.summary());
	}

}
