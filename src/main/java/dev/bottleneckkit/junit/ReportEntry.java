package dev.bottleneckkit.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * One load run or one sweep of one scenario test, as the report shows it, with the gauges
 * sampled beside it: one of three kinds, each with the model it is held to. A
 * {@link Load} against a {@link Ceiling}, a {@link Failing} run against the
 * {@link FailureMode} it proves, a {@link Swept} sweep against its verdict. Its outcome
 * is known when the test ends.
 */
abstract sealed class ReportEntry permits ReportEntry.Load, ReportEntry.Failing, ReportEntry.Swept {

	/** Where the test that recorded the entry stands. */
	enum Outcome {

		/** The test has not ended yet. */
		RUNNING,
		/** Every assertion held. */
		PASSED,
		/** An assertion failed: {@link #failure()} says which. */
		FAILED

	}

	/** Who recorded the entry: the scenario, its test and the case's name. */
	record Source(String scenarioId, String scenarioTitle, String testName, String caseName, String testId) {
	}

	private final Source source;

	private final LoadResult result;

	private final Map<String, String> evidence;

	private final Map<String, GaugeTimeline> gauges;

	private volatile Outcome outcome = Outcome.RUNNING;

	/** The failed assertion's first line; empty unless FAILED. */
	private volatile String failure = "";

	private ReportEntry(Source source, LoadResult result, Map<String, String> evidence,
			Map<String, GaugeTimeline> gauges) {
		this.source = source;
		this.result = result;
		this.evidence = Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
		this.gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
	}

	/** A run held to a ceiling: min(users, limit) / latency. */
	static final class Load extends ReportEntry {

		private final Ceiling ceiling;

		Load(Source source, LoadResult result, Ceiling ceiling, Map<String, String> evidence,
				Map<String, GaugeTimeline> gauges) {
			super(source, result, evidence, gauges);
			this.ceiling = ceiling;
		}

		Ceiling ceiling() {
			return this.ceiling;
		}

	}

	/**
	 * A run that proves a failure mode: its kind, rate and time to fail are its model.
	 */
	static final class Failing extends ReportEntry {

		private final FailureMode failureMode;

		Failing(Source source, LoadResult result, FailureMode failureMode, Map<String, String> evidence,
				Map<String, GaugeTimeline> gauges) {
			super(source, result, evidence, gauges);
			this.failureMode = failureMode;
		}

		FailureMode failureMode() {
			return this.failureMode;
		}

	}

	/** A sweep: its last step is the entry's result, its verdict the model. */
	static final class Swept extends ReportEntry {

		private final SweepResult sweep;

		Swept(Source source, SweepResult sweep, Map<String, String> evidence, Map<String, GaugeTimeline> gauges) {
			super(source, sweep.steps().get(sweep.steps().size() - 1).result(), evidence, gauges);
			this.sweep = sweep;
		}

		SweepResult sweep() {
			return this.sweep;
		}

		/**
		 * A failed test's outcome, and where the sweep was measured against a base, its
		 * own: a guard of several routes fails on one, and the others say they did not
		 * regress.
		 */
		@Override
		String outcome() {
			String outcome = super.outcome();
			return this.sweep.comparison()
				.filter((compared) -> state() == Outcome.FAILED)
				.map((compared) -> outcome + "; this route alone: " + compared.outcome())
				.orElse(outcome);
		}

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
		return this.source.scenarioId();
	}

	String scenarioTitle() {
		return this.source.scenarioTitle();
	}

	String testName() {
		return this.source.testName();
	}

	String caseName() {
		return this.source.caseName();
	}

	String testId() {
		return this.source.testId();
	}

	LoadResult result() {
		return this.result;
	}

	Map<String, String> evidence() {
		return this.evidence;
	}

	/** Gauges sampled beside the run, by whose they are. */
	Map<String, GaugeTimeline> gauges() {
		return this.gauges;
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
