package dev.bottleneckkit.assertions;

import dev.bottleneckkit.probe.PinningReport;

/**
 * The kit's assertions on a {@link PinningReport}, from
 * {@code BottleneckAssertions.assertThat(pinningReport)}; extend
 * {@link AbstractPinningReportAssert} to add assertions of your own.
 */
public class PinningReportAssert extends AbstractPinningReportAssert<PinningReportAssert> {

	public PinningReportAssert(PinningReport actual) {
		super(actual, PinningReportAssert.class);
	}

}
