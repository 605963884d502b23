package dev.bottleneckkit.probe;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * What {@link ServiceGauges} sampled: per gauge label, values with their offset from the
 * start of sampling (start sampling right before the load and the offsets line up with
 * the load's timeline). Gauges the service does not expose are absent.
 *
 * @param series samples by gauge label, in the order the gauges were given
 * @param windowOpens when the window the load measured its throughput in opened, from the
 * start of sampling ({@link Duration#ZERO} when not known)
 * @param windowCloses when it closed ({@link #UNTIL_THE_END} when not known)
 */
public record GaugeTimeline(Map<String, List<Sample>> series, Duration windowOpens, Duration windowCloses) {

	/** A window that closes when the sampling does. */
	public static final Duration UNTIL_THE_END = Duration.ofSeconds(Long.MAX_VALUE);

	/** Samples with no window known: all of them count as the window's. */
	public GaugeTimeline(Map<String, List<Sample>> series) {
		this(series, Duration.ZERO, UNTIL_THE_END);
	}

	/**
	 * The same samples, the load's window opening {@code opens} and closing
	 * {@code closes} after sampling started: what {@link #meanInWindow} averages.
	 */
	public GaugeTimeline inWindow(Duration opens, Duration closes) {
		return new GaugeTimeline(this.series, opens, closes);
	}

	/**
	 * The mean of the samples taken in the load's window: a gauge's time average while
	 * the throughput was measured (U in the utilization law U = X × D). Empty when no
	 * sample fell in it.
	 */
	public OptionalDouble meanInWindow(Gauge gauge) {
		return this.series.getOrDefault(gauge.label(), List.of())
			.stream()
			.filter((sample) -> sample.at().compareTo(this.windowOpens) >= 0
					&& sample.at().compareTo(this.windowCloses) <= 0)
			.mapToDouble(Sample::value)
			.average();
	}

	/** How many samples of {@code gauge} fell in the load's window. */
	public int samplesInWindow(Gauge gauge) {
		return (int) this.series.getOrDefault(gauge.label(), List.of())
			.stream()
			.filter((sample) -> sample.at().compareTo(this.windowOpens) >= 0
					&& sample.at().compareTo(this.windowCloses) <= 0)
			.count();
	}

	/** Highest value seen, or empty when the service does not expose the gauge. */
	public OptionalDouble max(Gauge gauge) {
		return values(gauge).max();
	}

	/** Lowest value seen, or empty when the service does not expose the gauge. */
	public OptionalDouble min(Gauge gauge) {
		return values(gauge).min();
	}

	/**
	 * How much a growing measurement (a timer's {@code COUNT} or {@code TOTAL_TIME}) grew
	 * while sampled.
	 */
	public OptionalDouble increase(Gauge gauge) {
		List<Sample> samples = this.series.getOrDefault(gauge.label(), List.of());
		return (samples.size() < 2) ? OptionalDouble.empty()
				: OptionalDouble.of(samples.get(samples.size() - 1).value() - samples.get(0).value());
	}

	/**
	 * The mean of a timer over the sampling: the increase of its total seconds over the
	 * increase of its count, e.g. how long one use held a Hikari connection
	 * ({@code meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES)}): the W of
	 * Little's law at that pool, measured while the load ran. Empty when nothing was
	 * counted.
	 */
	public Optional<Duration> meanTime(Gauge totalSeconds, Gauge count) {
		OptionalDouble seconds = increase(totalSeconds);
		OptionalDouble uses = increase(count);
		if (seconds.isEmpty() || uses.isEmpty() || uses.getAsDouble() <= 0) {
			return Optional.empty();
		}
		return Optional.of(Duration.ofNanos(Math.round(seconds.getAsDouble() / uses.getAsDouble() * 1e9)));
	}

	/**
	 * How fast a growing measurement (a timer's {@code COUNT}) grew while sampled, per
	 * second between its first and its last sample: Hikari's uses a second. Empty with
	 * fewer than two samples or none apart.
	 */
	public OptionalDouble rate(Gauge gauge) {
		List<Sample> samples = this.series.getOrDefault(gauge.label(), List.of());
		if (samples.size() < 2) {
			return OptionalDouble.empty();
		}
		double seconds = samples.get(samples.size() - 1).at().minus(samples.get(0).at()).toNanos() / 1e9;
		return (seconds > 0) ? OptionalDouble.of(increase(gauge).getAsDouble() / seconds) : OptionalDouble.empty();
	}

	/** Whether the service exposed the gauge. */
	public boolean has(Gauge gauge) {
		return this.series.containsKey(gauge.label());
	}

	/** "http.pool.pending max 35, http.pool.leased max 5, …" for reports. */
	public Map<String, String> maxima() {
		Map<String, String> maxima = new LinkedHashMap<>();
		this.series.forEach((label, samples) -> maxima.put(label + " max", String.format(Locale.ROOT, "%.0f",
				samples.stream().mapToDouble(Sample::value).max().orElse(Double.NaN))));
		return maxima;
	}

	@Override
	public String toString() {
		return this.series.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "="
					+ entry.getValue()
						.stream()
						.map((sample) -> String.format(Locale.ROOT, "%.0f", sample.value()))
						.collect(Collectors.joining(",", "[", "]")))
			.collect(Collectors.joining(" "));
	}

	private java.util.stream.DoubleStream values(Gauge gauge) {
		return this.series.getOrDefault(gauge.label(), List.of()).stream().mapToDouble(Sample::value);
	}

	/**
	 * One reading.
	 *
	 * @param at time since sampling started
	 * @param value the meter's value
	 */
	public record Sample(Duration at, double value) {
	}

}
