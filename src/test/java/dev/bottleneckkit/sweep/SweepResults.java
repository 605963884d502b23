package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.internal.analysis.Analysis;
import dev.bottleneckkit.sweep.internal.analysis.Attribution;
import dev.bottleneckkit.sweep.internal.run.Readings;

/** Sweeps made by hand, for tests of what reads them (the report). */
public final class SweepResults {

	private SweepResults() {
	}

	/**
	 * A sweep of 1 to 16 users of a 500 ms route capped by an HttpClient pool of 5 at 10
	 * rps from 8 users.
	 */
	public static SweepResult cappedByAPoolOfFive() {
		GaugeTimeline pool = new GaugeTimeline(Map.of(Gauge.HTTP_POOL_LEASED.label(), samples(5),
				Gauge.HTTP_POOL_MAX_PER_ROUTE.label(), samples(5), Gauge.HTTP_POOL_PENDING.label(), samples(11)));
		List<Step> steps = List.of(step(1, 2.0, 500, empty()), step(2, 4.0, 500, empty()), step(4, 7.9, 505, empty()),
				step(8, 9.9, 800, pool), step(16, 9.9, 1610, pool));
		return finished("S1 default pool", URI.create("http://localhost/call/sleep"), steps, true);
	}

	/**
	 * The same sweep by name as {@link #cappedByAPoolOfFive()}, after a change: now a
	 * Hikari pool of 4 at 1 s caps it at 4 rps from 4 users.
	 */
	public static SweepResult cappedByHikariAtFourRps() {
		GaugeTimeline hikari = new GaugeTimeline(Map.of(Gauge.HIKARI_ACTIVE.label(), samples(4),
				Gauge.HIKARI_MAX.label(), samples(4), Gauge.HIKARI_PENDING.label(), samples(4)));
		List<Step> steps = List.of(step(1, 1.0, 1000, empty()), step(2, 2.0, 1000, empty()), step(4, 3.9, 1010, hikari),
				step(8, 4.0, 2000, hikari));
		return finished("S1 default pool", URI.create("http://localhost/call/sleep"), steps, true);
	}

	/**
	 * A sweep of 1 to 8 users whose every answer was a 404: "no cap", read off errors.
	 */
	public static SweepResult everyAnswerA404() {
		List<Step> steps = new ArrayList<>();
		for (int users = 1; users <= 8; users *= 2) {
			LoadResult result = LoadResults.closedLoop("step", users, Duration.ofSeconds(4), 0, Duration.ofMillis(5),
					Map.of("http-404", 800L * users), Duration.ofMillis(5));
			steps.add(new Step(users, result, empty(), empty(), Optional.empty(), List.of(), OptionalInt.empty(),
					List.of(), List.of(), Duration.ofSeconds(5)));
		}
		return finished(steps, false);
	}

	/**
	 * A sweep of 1 to 4 users of a 100 ms route, still rising at 39 rps when it stopped.
	 */
	public static SweepResult stillRisingAt39Rps() {
		return finished(List.of(step(1, 9.9, 100, empty()), step(2, 19.8, 100, empty()), step(4, 39.0, 102, empty())),
				false);
	}

	/** {@code sweep} with its verdict put to the test as {@code confirmation} says. */
	public static SweepResult confirmed(SweepResult sweep, Confirmation confirmation) {
		return new SweepResult(sweep.name(), sweep.target(), sweep.readings(), sweep.analysis(),
				Optional.of(confirmation), sweep.search(), sweep.comparison());
	}

	/** {@code sweep} with the search for a limit that {@code search} describes. */
	public static SweepResult searched(SweepResult sweep, Search search) {
		return new SweepResult(sweep.name(), sweep.target(), sweep.readings(), sweep.analysis(), sweep.confirmation(),
				Optional.of(search), sweep.comparison());
	}

	/** {@code sweep} measured side by side with a base, as {@code comparison} says. */
	public static SweepResult compared(SweepResult sweep, ABComparison comparison) {
		return new SweepResult(sweep.name(), sweep.target(), sweep.readings(), sweep.analysis(), sweep.confirmation(),
				sweep.search(), Optional.of(comparison));
	}

	private static SweepResult finished(List<Step> steps, boolean saturated) {
		return finished("sweep", URI.create("http://localhost/orders"), steps, saturated);
	}

	private static SweepResult finished(String name, URI uri, List<Step> steps, boolean saturated) {
		return analysed(name, uri, steps, saturated);
	}

	/**
	 * {@code steps} as a sweep's run would hand them on, analysed, nothing put to the
	 * test.
	 */
	public static SweepResult analysed(String name, URI uri, List<Step> steps, boolean saturated) {
		return analysed(name, uri, steps, saturated, List.of());
	}

	/**
	 * The same, with the {@code settings} the kinds read of the service's configuration
	 * (a rate limiter's rate).
	 */
	public static SweepResult analysed(String name, URI uri, List<Step> steps, boolean saturated,
			List<? extends Record> settings) {
		Readings readings = new Readings(steps, saturated, Optional.empty(), List.of(), Optional.empty(),
				Duration.ofSeconds(20), List.copyOf(settings));
		return new SweepResult(name, uri, readings, Attribution.of(readings), Optional.empty(), Optional.empty(),
				Optional.empty());
	}

	/**
	 * {@code readings} as a sweep's run would hand them on, analysed as {@code analysis}.
	 */
	public static SweepResult of(Readings readings, Analysis analysis) {
		return new SweepResult("test", URI.create("http://localhost/"), readings, analysis, Optional.empty(),
				Optional.empty(), Optional.empty());
	}

	/** What the sweep read, for tests of the stages that read it. */
	public static Readings readings(SweepResult sweep) {
		return sweep.readings();
	}

	/** The sweep's analysis, for tests of the stages that read it. */
	public static Analysis analysis(SweepResult sweep) {
		return sweep.analysis();
	}

	private static Step step(int users, double rps, long latencyMs, GaugeTimeline gauges) {
		Duration window = Duration.ofSeconds(4);
		return new Step(users,
				LoadResults.closedLoop("step", users, window, Math.round(rps * 4), Duration.ofMillis(latencyMs)),
				gauges, empty(), Optional.empty(), List.of(), OptionalInt.empty(), List.of(), List.of(),
				Duration.ofSeconds(5));
	}

	private static GaugeTimeline empty() {
		return new GaugeTimeline(Map.of());
	}

	private static List<GaugeTimeline.Sample> samples(double max) {
		return List.of(new GaugeTimeline.Sample(Duration.ZERO, 0), new GaugeTimeline.Sample(Duration.ofSeconds(2), max),
				new GaugeTimeline.Sample(Duration.ofSeconds(4), max));
	}

}
