package dev.bottleneckkit.probe;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A gauge's mean over the window the load measured its throughput in: the samples of the
 * warm-up before it and of the probes' end after it do not count.
 */
class GaugeTimelineTest {

	private static final Gauge BUSY = Gauge.of("stock.renderers.busy");

	private static final GaugeTimeline SAMPLED = new GaugeTimeline(Map.of(BUSY.label(),
			List.of(sample(250, 0), sample(750, 1), sample(1250, 2), sample(1750, 2), sample(2250, 3))));

	@Test
	void theMeanInTheWindowCountsOnlyItsSamples() {
		GaugeTimeline windowed = SAMPLED.inWindow(Duration.ofMillis(500), Duration.ofMillis(2000));

		assertThat(windowed.meanInWindow(BUSY).orElseThrow()).isCloseTo(5.0 / 3, within(1e-9));
		assertThat(windowed.max(BUSY)).as("the maxima stay the step's").hasValue(3);
	}

	@Test
	void withNoWindowKnownEverySampleCounts() {
		assertThat(SAMPLED.meanInWindow(BUSY).orElseThrow()).isCloseTo(1.6, within(1e-9));
		assertThat(SAMPLED.inWindow(Duration.ofSeconds(3), Duration.ofSeconds(4)).meanInWindow(BUSY)).isEmpty();
	}

	private static GaugeTimeline.Sample sample(long millis, double value) {
		return new GaugeTimeline.Sample(Duration.ofMillis(millis), value);
	}

}
