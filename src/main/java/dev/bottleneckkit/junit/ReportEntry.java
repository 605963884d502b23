package dev.bottleneckkit.junit;

import java.util.Map;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * One load run (or one sweep) of one scenario test, as the report shows it, with the
 * gauges sampled beside it. Its outcome is known when the test ends.
 */
final class ReportEntry {

	private final String scenarioId;

	private final String scenarioTitle;

	private final String testName;

	private final String caseName;

	private final LoadResult result;

	private final Ceiling ceiling;

	private final FailureMode failureMode;

	private final Map<String, String> evidence;

	private final String testId;

	private final Map<String, GaugeTimeline> gauges;

	private final SweepResult sweep;

	/** Where the test that recorded the entry stands. */
	enum Outcome {

		/** The test has not ended yet. */
		RUNNING,
		/** Every assertion held. */
		PASSED,
		/** An assertion failed: {@link #failure()} says which. */
		FAILED

	}

	private volatile Outcome outcome = Outcome.RUNNING;

	/** The failed assertion's first line; empty unless FAILED. */
	private volatile String failure = "";

	ReportEntry(String scenarioId, String scenarioTitle, String testName, String caseName, LoadResult result,
			Ceiling ceiling, Map<String, String> evidence, String testId) {
		this(scenarioId, scenarioTitle, testName, caseName, result, ceiling, evidence, testId, Map.of(), null);
	}

	/**
	 * A run with the gauges sampled beside it, by whose they are ({@code "caller"}), or a
	 * sweep ({@code sweep} not null; {@code result} is then its last step, and
	 * {@code ceiling} may be null).
	 */
	ReportEntry(String scenarioId, String scenarioTitle, String testName, String caseName, LoadResult result,
			Ceiling ceiling, Map<String, String> evidence, String testId, Map<String, GaugeTimeline> gauges,
			SweepResult sweep) {
		this(scenarioId, scenarioTitle, testName, caseName, result, ceiling, null, evidence, testId, gauges, sweep);
	}

	/**
	 * A run that proves a failure mode: {@code failureMode} is its model, {@code ceiling}
	 * null.
	 */
	ReportEntry(String scenarioId, String scenarioTitle, String testName, String caseName, LoadResult result,
			FailureMode failureMode, Map<String, String> evidence, String testId, Map<String, GaugeTimeline> gauges) {
		this(scenarioId, scenarioTitle, testName, caseName, result, null, failureMode, evidence, testId, gauges, null);
	}

	private ReportEntry(String scenarioId, String scenarioTitle, String testName, String caseName, LoadResult result,
			Ceiling ceiling, FailureMode failureMode, Map<String, String> evidence, String testId,
			Map<String, GaugeTimeline> gauges, SweepResult sweep) {
		this.failureMode = failureMode;
		this.scenarioId = scenarioId;
		this.scenarioTitle = scenarioTitle;
		this.testName = testName;
		this.caseName = caseName;
		this.result = result;
		this.ceiling = ceiling;
		this.evidence = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(evidence));
		this.testId = testId;
		this.gauges = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(gauges));
		this.sweep = sweep;
	}

	/**
	 * Marks the entry passed, or failed with the assertion's first line, once: a rerun of
	 * the test (Failsafe's {@code rerunFailingTestsCount}) records entries of its own and
	 * never turns a failed attempt's into passed.
	 */
	void settle(Throwable failure) {
		if (this.outcome != Outcome.RUNNING) {
			return;
		}
		if (failure == null) {
			this.outcome = Outcome.PASSED;
		}
		else {
			String message = String.valueOf(failure.getMessage()).strip();
			this.failure = message.lines().findFirst().orElse(failure.getClass().getSimpleName());
			this.outcome = Outcome.FAILED;
		}
	}

	String scenarioId() {
		return this.scenarioId;
	}

	String scenarioTitle() {
		return this.scenarioTitle;
	}

	String testName() {
		return this.testName;
	}

	String caseName() {
		return this.caseName;
	}

	LoadResult result() {
		return this.result;
	}

	Ceiling ceiling() {
		return this.ceiling;
	}

	/** The failure this run proves, or null when a ceiling (or a sweep) is its model. */
	FailureMode failureMode() {
		return this.failureMode;
	}

	Map<String, String> evidence() {
		return this.evidence;
	}

	String testId() {
		return this.testId;
	}

	/** Gauges sampled beside the run, by whose they are. */
	Map<String, GaugeTimeline> gauges() {
		return this.gauges;
	}

	/** The sweep this entry shows, or null for a single run. */
	SweepResult sweep() {
		return this.sweep;
	}

	/**
	 * "passed", "running", or "failed: " and the assertion's first line, as the report
	 * prints it.
	 */
	String outcome() {
		return switch (this.outcome) {
			case PASSED -> "passed";
			case RUNNING -> "running";
			case FAILED -> "failed: " + this.failure;
		};
	}

	Outcome state() {
		return this.outcome;
	}

	/** The failed assertion's first line; empty unless the entry failed. */
	String failure() {
		return this.failure;
	}

	boolean passed() {
		return this.outcome == Outcome.PASSED;
	}

}
