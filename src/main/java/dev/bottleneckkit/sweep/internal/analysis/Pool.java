package dev.bottleneckkit.sweep.internal.analysis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;

/**
 * A pool's reading at its limit: what was in use at most, its limit, how many waited at
 * most, and how it was read.
 *
 * @param label the gauge (or the reading) that counted the units in use
 * @param inUse units in use at most
 * @param limit the pool's size
 * @param pending waiters at most
 * @param more further readings, by name
 */
public record Pool(String label, int inUse, int limit, int pending, Map<String, String> more) {

	public Pool(String label, int inUse, int limit, int pending) {
		this(label, inUse, limit, pending, Map.of());
	}

	/**
	 * A pool at its limit with work pending for it, from its in-use, limit and pending
	 * gauges.
	 */
	public static Optional<Pool> atItsLimit(GaugeTimeline gauges, Gauge inUse, Gauge limit, Gauge pending) {
		OptionalDouble used = gauges.max(inUse);
		OptionalDouble max = gauges.max(limit);
		OptionalDouble waiting = gauges.max(pending);
		if (used.isEmpty() || max.isEmpty() || max.getAsDouble() < 1 || used.getAsDouble() < max.getAsDouble()) {
			return Optional.empty();
		}
		// Work waits when a reading saw it pending, or when the pool was full in nearly
		// every reading: with few requests beyond the pool (a thread pool in front of it
		// lets two more in) a quarter-second sampler can miss the pending ones.
		boolean pendingSeen = waiting.isPresent() && waiting.getAsDouble() >= 1;
		if (!pendingSeen && fullShare(gauges, inUse, max.getAsDouble()) < AnalysisPolicy.ALWAYS_FULL) {
			return Optional.empty();
		}
		return Optional.of(new Pool(inUse.label(), (int) Math.round(used.getAsDouble()),
				(int) Math.round(max.getAsDouble()), (int) Math.round(waiting.orElse(0))));
	}

	/**
	 * The share of {@code gauge}'s readings at {@code limit} or above, after the first.
	 */
	private static double fullShare(GaugeTimeline gauges, Gauge gauge, double limit) {
		List<GaugeTimeline.Sample> samples = gauges.series().getOrDefault(gauge.label(), List.of());
		if (samples.size() < 4) {
			return 0;
		}
		// The first reading falls in the step's warm-up, before the users are all in.
		List<GaugeTimeline.Sample> after = samples.subList(1, samples.size());
		return after.stream().filter((sample) -> sample.value() >= limit).count() / (double) after.size();
	}

	/** The readings a verdict shows: in use at most, waiting at most, and the rest. */
	public Map<String, String> readings() {
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put(this.label + " max", this.inUse + " of " + this.limit);
		readings.put("waiting max", Integer.toString(this.pending));
		readings.putAll(this.more);
		return readings;
	}

}
