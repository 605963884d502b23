package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;

/** Sweeps made by hand, for tests of what reads them (the report). */
public final class SweepResults {

	private SweepResults() {
	}

	/** A sweep of 1 to 16 users of a 500 ms route capped by an HttpClient pool of 5 at 10 rps from 8 users. */
	public static SweepResult cappedByAPoolOfFive() {
		GaugeTimeline pool = new GaugeTimeline(Map.of(Gauge.HTTP_POOL_LEASED.label(), samples(5),
				Gauge.HTTP_POOL_MAX_PER_ROUTE.label(), samples(5), Gauge.HTTP_POOL_PENDING.label(), samples(11)));
		List<Step> steps = List.of(step(1, 2.0, 500, empty()), step(2, 4.0, 500, empty()), step(4, 7.9, 505, empty()),
				step(8, 9.9, 800, pool), step(16, 9.9, 1610, pool));
		SweepResult partial = new SweepResult("S1 default pool", URI.create("http://localhost/call/sleep"), steps, true, null,
				Duration.ofSeconds(25));
		return new SweepResult("S1 default pool", URI.create("http://localhost/call/sleep"), steps, true,
				Attribution.of(partial), Duration.ofSeconds(25));
	}

	private static Step step(int users, double rps, long latencyMs, GaugeTimeline gauges) {
		Duration window = Duration.ofSeconds(4);
		return new Step(users, LoadResults.closedLoop("step", users, window, Math.round(rps * 4), Duration.ofMillis(latencyMs)),
				gauges, empty(), 0.12, 2, Double.NaN, Double.NaN, List.of(), null, Duration.ofSeconds(5));
	}

	private static GaugeTimeline empty() {
		return new GaugeTimeline(Map.of());
	}

	private static List<GaugeTimeline.Sample> samples(double max) {
		return List.of(new GaugeTimeline.Sample(Duration.ZERO, 0), new GaugeTimeline.Sample(Duration.ofSeconds(2), max),
				new GaugeTimeline.Sample(Duration.ofSeconds(4), max));
	}

}
