package dev.bottleneckkit.baseline;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The spread of a run's p99 by the bootstrap: the run's recorded latencies (its
 * HdrHistogram in {@code results.json}) resampled with replacement, the p99 of each
 * resample, and their standard deviation over the p99: how much the p99 alone would move
 * if the same run were measured again.
 */
final class P99Spread {

	/** Resamples per run. */
	static final int RESAMPLES = 200;

	private P99Spread() {
	}

	/**
	 * The relative standard error of the p99 of the latencies encoded in {@code encoded};
	 * empty without them, or with fewer than 20.
	 */
	static OptionalDouble of(String encoded) {
		if (encoded == null || encoded.isEmpty()) {
			return OptionalDouble.empty();
		}
		Histogram histogram;
		try {
			histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)),
					0);
		}
		catch (Exception ex) {
			return OptionalDouble.empty();
		}
		long count = histogram.getTotalCount();
		if (count < 20) {
			return OptionalDouble.empty();
		}
		int buckets = 0;
		for (HistogramIterationValue ignored : histogram.recordedValues()) {
			buckets++;
		}
		long[] values = new long[buckets];
		long[] cumulative = new long[buckets];
		int i = 0;
		long total = 0;
		for (HistogramIterationValue value : histogram.recordedValues()) {
			total += value.getCountAtValueIteratedTo();
			values[i] = value.getValueIteratedTo();
			cumulative[i++] = total;
		}
		SplittableRandom random = new SplittableRandom(42);
		double[] p99s = new double[RESAMPLES];
		int n = (int) Math.min(count, 100_000);
		for (int r = 0; r < RESAMPLES; r++) {
			Histogram resample = new Histogram(3);
			for (int k = 0; k < n; k++) {
				long ticket = random.nextLong(total);
				int at = java.util.Arrays.binarySearch(cumulative, ticket + 1);
				resample.recordValue(values[(at >= 0) ? at : -at - 1]);
			}
			p99s[r] = resample.getValueAtPercentile(99);
		}
		double mean = java.util.Arrays.stream(p99s).average().orElse(0);
		if (mean <= 0) {
			return OptionalDouble.empty();
		}
		double variance = java.util.Arrays.stream(p99s).map((p) -> (p - mean) * (p - mean)).sum() / (RESAMPLES - 1);
		return OptionalDouble.of(Math.sqrt(variance) / mean);
	}

}
