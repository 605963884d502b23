package dev.bottleneckkit.probe;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * What {@link ServiceGauges} sampled: per gauge label, values with their offset from the start of
 * sampling (start sampling right before the load and the offsets line up with the load's timeline).
 * Gauges the service does not expose are absent.
 *
 * @param series samples by gauge label, in the order the gauges were given
 */
public record GaugeTimeline(Map<String, List<Sample>> series) {

	/** Highest value seen, or empty when the service does not expose the gauge. */
	public OptionalDouble max(Gauge gauge) {
		return values(gauge).max();
	}

	/** Lowest value seen, or empty when the service does not expose the gauge. */
	public OptionalDouble min(Gauge gauge) {
		return values(gauge).min();
	}

	/** Whether the service exposed the gauge. */
	public boolean has(Gauge gauge) {
		return this.series.containsKey(gauge.label());
	}

	/** "http.pool.pending max 35, http.pool.leased max 5, …" for reports. */
	public Map<String, String> maxima() {
		Map<String, String> maxima = new LinkedHashMap<>();
		this.series.forEach((label, samples) -> maxima.put(label + " max",
				String.format(Locale.ROOT, "%.0f", samples.stream().mapToDouble(Sample::value).max().orElse(Double.NaN))));
		return maxima;
	}

	@Override
	public String toString() {
		return this.series.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue().stream()
				.map((sample) -> String.format(Locale.ROOT, "%.0f", sample.value()))
				.collect(Collectors.joining(",", "[", "]")))
			.collect(Collectors.joining(" "));
	}

	private java.util.stream.DoubleStream values(Gauge gauge) {
		return this.series.getOrDefault(gauge.label(), List.of()).stream().mapToDouble(Sample::value);
	}

	/**
	 * One reading.
	 * @param at time since sampling started
	 * @param value the meter's value
	 */
	public record Sample(Duration at, double value) {
	}

}
