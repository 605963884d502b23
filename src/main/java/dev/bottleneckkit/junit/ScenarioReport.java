package dev.bottleneckkit.junit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.SweepResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one scenario test records for the report: each load run with the ceiling it was
 * judged against and the evidence that names the mechanism (peak in-flight, pinned
 * events, pool gauges). Inject it as a test-method parameter of a {@link Scenario}.
 */
public final class ScenarioReport {

	private static final Logger log = LoggerFactory.getLogger(ScenarioReport.class);

	private static final List<ReportEntry> entries = new ArrayList<>();

	private final String scenarioId;

	private final String scenarioTitle;

	private final String testName;

	private final String testId;

	private ScenarioReport(String scenarioId, String scenarioTitle, String testName, String testId) {
		this.scenarioId = scenarioId;
		this.scenarioTitle = scenarioTitle;
		this.testName = testName;
		this.testId = testId;
	}

	static ScenarioReport forTest(String scenarioId, String scenarioTitle, String testName, String testId) {
		return new ScenarioReport(scenarioId, scenarioTitle, testName, testId);
	}

	/**
	 * Evidence for {@link #record} in the order given, which the report keeps:
	 * {@code evidence("peak", 8,
	 * "abandoned", 68)}. ({@code Map.of} has no order, so the report's columns would move
	 * between runs.)
	 */
	public static Map<String, Object> evidence(Object... namesAndValues) {
		if (namesAndValues.length % 2 != 0) {
			throw new IllegalArgumentException(
					"evidence takes name, value pairs; got " + namesAndValues.length + " arguments");
		}
		Map<String, Object> evidence = new java.util.LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			evidence.put(String.valueOf(namesAndValues[i]), namesAndValues[i + 1]);
		}
		return evidence;
	}

	/**
	 * Records a run. {@code evidence} keeps its order, e.g.
	 * {@code "downstream peak in-flight" -> 5}. Call it before asserting, so a failing
	 * run is in the report too.
	 */
	public void record(String caseName, LoadResult result, Ceiling ceiling, Map<String, ?> evidence) {
		record(caseName, result, ceiling, evidence, Map.of());
	}

	/**
	 * Records a run with the gauges sampled beside it, by whose they are
	 * ({@code Map.of("caller", callerGauges)}): the report draws each gauge's time series
	 * under the run's throughput.
	 */
	public void record(String caseName, LoadResult result, Ceiling ceiling, Map<String, ?> evidence,
			Map<String, GaugeTimeline> gauges) {
		Map<String, String> shown = new LinkedHashMap<>();
		evidence.forEach((key, value) -> shown.put(key, String.valueOf(value)));
		add(new ReportEntry.Load(source(caseName), result, ceiling, shown, gauges));
		log.info("[{}] {}: {} | cap {} | {}", this.scenarioId, caseName, result.summary(), ceiling.explain(), shown);
	}

	/**
	 * Records a run that proves a failure mode (a read timeout, resets, a pending limit):
	 * the report shows the expected failure, its kind, failures per second and time to
	 * fail, as the run's model. Call it before asserting.
	 */
	public void record(String caseName, LoadResult result, FailureMode expected, Map<String, ?> evidence) {
		record(caseName, result, expected, evidence, Map.of());
	}

	/**
	 * Records a run that proves a failure mode, with the gauges sampled beside it, by
	 * whose they are.
	 */
	public void record(String caseName, LoadResult result, FailureMode expected, Map<String, ?> evidence,
			Map<String, GaugeTimeline> gauges) {
		Map<String, String> shown = new LinkedHashMap<>();
		evidence.forEach((key, value) -> shown.put(key, String.valueOf(value)));
		add(new ReportEntry.Failing(source(caseName), result, expected, shown, gauges));
		log.info("[{}] {}: {} | expected: {} | {}", this.scenarioId, caseName, result.summary(), expected.explain(),
				shown);
	}

	/**
	 * Records a sweep: the report draws its throughput and latency against users, the
	 * knee and the model's line, and {@code summary.md} carries its verdict. Call it
	 * before asserting.
	 */
	public void record(String caseName, SweepResult sweep) {
		Map<String, String> shown = new LinkedHashMap<>(sweep.verdict().readings());
		Map<String, GaugeTimeline> gauges = new LinkedHashMap<>();
		gauges.put("service, last step", sweep.steps().get(sweep.steps().size() - 1).service());
		add(new ReportEntry.Swept(source(caseName), sweep, shown, gauges));
		log.info("[{}] {}: {}", this.scenarioId, caseName, sweep.verdict());
	}

	private ReportEntry.Source source(String caseName) {
		return new ReportEntry.Source(this.scenarioId, this.scenarioTitle, this.testName, caseName, this.testId);
	}

	private static void add(ReportEntry entry) {
		synchronized (entries) {
			entries.add(entry);
		}
	}

	static void settle(String testId, Throwable failure) {
		synchronized (entries) {
			entries.stream().filter((entry) -> entry.testId().equals(testId)).forEach((entry) -> entry.settle(failure));
		}
	}

	static List<ReportEntry> entries() {
		synchronized (entries) {
			return List.copyOf(entries);
		}
	}

}
