package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LatencyOnAGridTest {

	@Test
	void eachAnswerIsRoundedUpToTheNextArrivalOfTheGrid() {
		Histogram latencies = new Histogram(3);
		latencies.recordValueWithCount(508_000, 3);
		latencies.recordValue(560_000);
		LoadResult result = new LoadResult("open", 0, Duration.ofSeconds(8), 4, Map.of(), latencies, new Histogram(3),
				List.of(), Duration.ZERO, 40, 0.1);

		// 508 ms waits for the arrival at 525 ms, 560 ms for the one at 575 ms.
		assertThat(result.meanLatencyRoundedUpTo(Duration.ofMillis(25)).toMillis()).isEqualTo((3 * 525 + 575) / 4);
		assertThat(result.meanOfAnswers().toMillis()).as("unrounded, to the histogram's precision")
			.isCloseTo((3 * 508 + 560) / 4, within(1L));
	}

	@Test
	void aGridOfLessThanAMicrosecondIsRefused() {
		LoadResult result = LoadResults.closedLoop("closed", 1, Duration.ofSeconds(1), 1, Duration.ofMillis(5));
		assertThatThrownBy(() -> result.meanLatencyRoundedUpTo(Duration.ZERO))
			.hasMessage("the grid must be at least 1 µs, was PT0S");
	}

}
