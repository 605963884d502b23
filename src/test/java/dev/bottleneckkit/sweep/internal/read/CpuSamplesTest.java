package dev.bottleneckkit.sweep.internal.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import dev.bottleneckkit.sweep.internal.run.Readings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuSamplesTest {

	@Test
	void aWindowIsReadBetweenTheFirstAndTheLastReadingInsideIt() {
		List<MachineCpu.Reading> edges = CpuSamples.edges(everyTenthOfASecond(), 1_050_000_000L, 2_250_000_000L)
			.orElseThrow();

		assertThat(edges).extracting(MachineCpu.Reading::at).containsExactly(1_100_000_000L, 2_200_000_000L);
	}

	@Test
	void aWindowWithFewerThanTwoReadingsInsideIsNotRead() {
		assertThat(CpuSamples.edges(everyTenthOfASecond(), 1_010_000_000L, 1_090_000_000L)).isEmpty();
		assertThat(CpuSamples.edges(everyTenthOfASecond(), 1_050_000_000L, 1_150_000_000L)).isEmpty();
	}

	@Test
	void aWindowWhoseReadingsSpanLessThanHalfOfItIsNotRead() {
		List<MachineCpu.Reading> sparse = List.of(reading(0), reading(1_000_000_000L), reading(1_300_000_000L),
				reading(3_000_000_000L));

		assertThat(CpuSamples.edges(sparse, 900_000_000L, 2_000_000_000L)).isEmpty();
		assertThat(CpuSamples.edges(sparse, 900_000_000L, 1_400_000_000L)).isPresent();
	}

	/** Readings every 100 ms from 0 to 3 s. */
	private static List<MachineCpu.Reading> everyTenthOfASecond() {
		List<MachineCpu.Reading> readings = new ArrayList<>();
		for (long at = 0; at <= 3_000_000_000L; at += 100_000_000L) {
			readings.add(reading(at));
		}
		return readings;
	}

	private static MachineCpu.Reading reading(long at) {
		return new MachineCpu.Reading(at, Map.of("service", at / 2), at / 10, OptionalLong.empty());
	}

}
