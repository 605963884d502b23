package dev.bottleneckkit.sweep.internal.run;

import dev.bottleneckkit.sweep.internal.waits.StockDumps;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a step takes more than one dump: where one dump cannot count what it shows.
 */
class DumpsProbeTest {

	/**
	 * The stock {@code /handled} in a nightly (its 6 handles taken from a
	 * {@code LinkedBlockingQueue} and put back by hand): at 16 users its one dump showed
	 * 10 request threads waiting in {@code LinkedBlockingQueue.take} and 5 past it, one
	 * handle between a holder and the next, and the verdict's model read 5 / W₁, 22 %
	 * under the ceiling. Waiters with holders past the site take three dumps; one user,
	 * none waiting, takes one.
	 */
	@Test
	void requestsWaitingForWhatOtherRequestsHoldTakeMoreDumps() {
		assertThat(DumpsProbe.needsMoreDumps(StockDumps.read("handled-5"))).isTrue();
		assertThat(DumpsProbe.needsMoreDumps(StockDumps.read("handled-1"))).isFalse();
	}

}
