package dev.bottleneckkit.assertions;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.sweep.SweepResult;
import org.assertj.core.api.Assertions;

/**
 * Entry point for the kit's assertions, in the style of AssertJ's {@code Assertions}: a
 * static import of {@code assertThat} gives the kit's assertions for its types and
 * AssertJ's for everything else.
 */
public class BottleneckAssertions extends Assertions {

	/**
	 * Assertions on a load run: throughput against a {@code Ceiling}, latency, errors by
	 * kind.
	 */
	public static LoadResultAssert assertThat(LoadResult actual) {
		return new LoadResultAssert(actual);
	}

	/**
	 * Assertions on a sweep: the resource its verdict names, where the service is not
	 * capped.
	 */
	public static SweepResultAssert assertThat(SweepResult actual) {
		return new SweepResultAssert(actual);
	}

	/** Assertions on pinned-thread events: none, at least n, every stack in some code. */
	public static PinningReportAssert assertThat(PinningReport actual) {
		return new PinningReportAssert(actual);
	}

}
