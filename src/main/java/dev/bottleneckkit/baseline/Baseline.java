package dev.bottleneckkit.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Results;
import dev.bottleneckkit.internal.SweepRecord;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * The figures of an earlier run, read from its {@code results.json} (e.g. main's latest),
 * to hold a run of a change against: did the change lower a sweep's ceiling, move its cap
 * to another resource, lower a load's throughput or raise its p99? Every bound is derived
 * from the spread the two runs measured, never guessed, and says how.
 *
 * <pre>{@code
 * Baseline main = Baseline.from(Path.of("baseline/results.json"));
 * assertThat(sweep).comparedWith(main);                    // the same sweep by name: ceiling, resource
 * Comparison all = main.against(Path.of("target/bottleneck-report/results.json"));
 * }</pre>
 *
 * From a shell (a CI job):
 * {@code java -cp bottleneck-kit.jar dev.bottleneckkit.baseline.BaselineCommand BASE.json
 * HEAD.json} prints the comparison in Markdown and exits 1 when anything regressed.
 * <p>
 * The file's schema, {@code bottleneck-kit/results/v2} (it reads v1 too), is published in
 * the jar as the JSON Schema {@code dev/bottleneckkit/results.schema.json}; the baseline
 * reads the same records of it that the report writes.
 */
public final class Baseline {

	/**
	 * A ceiling or throughput may drop, and a p99 rise, at least this much before it
	 * counts: the floor of a bound.
	 */
	static final double FLOOR = 0.05;

	/** ... and a p99 at least this much. */
	static final double LATENCY_FLOOR = 0.10;

	/** Standard errors a change may lie from its baseline before it is a regression. */
	static final double STANDARD_ERRORS = 3;

	private final Path file;

	/** Each sweep by its name. */
	private final Map<String, Recorded<SweepRecord>> sweeps = new LinkedHashMap<>();

	/** Each load by its scenario and case. */
	private final Map<String, Recorded<Results.Measured>> loads = new LinkedHashMap<>();

	private Baseline(Path file, Object results) {
		this.file = file;
		String schema = Json.string(results, "", "schema");
		if (!schema.startsWith("bottleneck-kit/results/")) {
			throw new IllegalArgumentException(file + " is not a bottleneck-kit results.json (schema '" + schema
					+ "'): pass the results.json of target/bottleneck-report");
		}
		for (Results.Run run : Results.File.read(results).runs()) {
			if (run.kind() == Results.Kind.SWEEP && run.sweep().isPresent()) {
				SweepRecord sweep = run.sweep().get();
				this.sweeps.put(sweep.name(), new Recorded<>(run.scenario(), sweep.name(), sweep));
			}
			else if (run.kind() == Results.Kind.LOAD) {
				this.loads.put(run.scenario() + " | " + run.caseName(),
						new Recorded<>(run.scenario(), run.caseName(), run.measured()));
			}
		}
	}

	/**
	 * A run of results.json: its scenario, its name and its figures.
	 */
	private record Recorded<T>(String scenario, String name, T figures) {
	}

	/**
	 * What a sweep's comparison reads: the resource that capped it, its ceiling (empty
	 * when it found none) and each step's throughput.
	 */
	record SweepFigures(String resource, OptionalDouble ceiling, List<Double> stepRps) {

		static SweepFigures of(SweepRecord sweep) {
			return new SweepFigures(sweep.verdict().resource(),
					sweep.saturated() ? sweep.ceilingRps() : OptionalDouble.empty(),
					sweep.steps().stream().map(SweepRecord.Step::rps).toList());
		}

		static SweepFigures of(SweepResult sweep) {
			return new SweepFigures(sweep.verdict().code(),
					sweep.saturated() ? OptionalDouble.of(sweep.ceiling()) : OptionalDouble.empty(),
					sweep.steps().stream().map(Step::throughput).toList());
		}

	}

	/**
	 * The baseline in {@code resultsJson}, a {@code results.json} a run of the kit wrote.
	 */
	public static Baseline from(Path resultsJson) {
		try {
			return new Baseline(resultsJson, Json.parse(Files.readString(resultsJson)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the baseline " + resultsJson
					+ ": download main's results.json there, or point at another", ex);
		}
	}

	/**
	 * The baseline a run names with {@code -Dbottleneck.baseline=path/results.json}, if
	 * any.
	 */
	public static Optional<Baseline> configured() {
		String path = System.getProperty("bottleneck.baseline", System.getenv("BOTTLENECK_BASELINE"));
		return (path == null || path.isBlank()) ? Optional.empty() : Optional.of(from(Path.of(path)));
	}

	/** Every run and sweep of {@code head} held against this baseline. */
	public Comparison against(Path head) {
		return against(from(head));
	}

	/** Every run and sweep of {@code head} held against this baseline. */
	public Comparison against(Baseline head) {
		List<Comparison.Row> rows = new ArrayList<>();
		head.sweeps.forEach((name, after) -> {
			Recorded<SweepRecord> before = this.sweeps.get(name);
			if (before != null) {
				rows.addAll(sweepRows(after.scenario(), name, SweepFigures.of(before.figures()),
						SweepFigures.of(after.figures())));
			}
		});
		head.loads.forEach((key, after) -> {
			Recorded<Results.Measured> before = this.loads.get(key);
			if (before != null) {
				rows.addAll(loadRows(after.scenario(), after.name(), before.figures(), after.figures()));
			}
		});
		return new Comparison(this.file, Optional.of(head.file), rows);
	}

	/**
	 * {@code sweep} held against this baseline's sweep of the same name, when the
	 * baseline has one.
	 */
	public Optional<Comparison> compare(SweepResult sweep) {
		Recorded<SweepRecord> before = this.sweeps.get(sweep.name());
		return (before == null) ? Optional.empty() : Optional.of(new Comparison(this.file, Optional.empty(),
				sweepRows("", sweep.name(), SweepFigures.of(before.figures()), SweepFigures.of(sweep))));
	}

	static List<Comparison.Row> sweepRows(String scenario, String name, SweepFigures before, SweepFigures after) {
		List<Comparison.Row> rows = new ArrayList<>();
		String was = before.resource();
		String now = after.resource();
		rows.add(new Comparison.Row(scenario, name, "capped by", words(was), words(now),
				was.equals(now) ? "same" : "changed", "the same resource", !was.equals(now)));
		if (before.ceiling().isPresent() && after.ceiling().isPresent()) {
			double ceilingBefore = before.ceiling().getAsDouble();
			double ceilingAfter = after.ceiling().getAsDouble();
			double spread = Math.max(plateauSpread(before), plateauSpread(after));
			double bound = Math.max(FLOOR, STANDARD_ERRORS * spread);
			double change = (ceilingAfter - ceilingBefore) / ceilingBefore;
			rows.add(new Comparison.Row(scenario, name, "ceiling", rps(ceilingBefore), rps(ceilingAfter),
					percent(change),
					String.format(Locale.ROOT, "−%s (3 × the %s spread of the steps at the ceiling, at least %s)",
							percent(bound).substring(1), percent(spread).substring(1), percent(FLOOR).substring(1)),
					change < -bound));
		}
		return rows;
	}

	static List<Comparison.Row> loadRows(String scenario, String name, Results.Measured before,
			Results.Measured after) {
		List<Comparison.Row> rows = new ArrayList<>();
		double rpsBefore = before.rps();
		double rpsAfter = after.rps();
		if (rpsBefore > 0 && !Double.isNaN(rpsAfter)) {
			double error = Math.hypot(relativeError(before, Results.Second::succeeded),
					relativeError(after, Results.Second::succeeded));
			double bound = Math.max(FLOOR, STANDARD_ERRORS * error);
			double change = (rpsAfter - rpsBefore) / rpsBefore;
			rows.add(new Comparison.Row(scenario, name, "throughput", rps(rpsBefore), rps(rpsAfter), percent(change),
					String.format(Locale.ROOT, "−%s (3 standard errors of the per-second counts, at least %s)",
							percent(bound).substring(1), percent(FLOOR).substring(1)),
					change < -bound));
		}
		if (before.latency().isPresent() && after.latency().isPresent() && before.latency().get().p99() > 0) {
			double p99Before = before.latency().get().p99();
			double p99After = after.latency().get().p99();
			OptionalDouble resampledBefore = P99Spread.of(before.latencyHistogram().orElse(""));
			OptionalDouble resampledAfter = P99Spread.of(after.latencyHistogram().orElse(""));
			boolean resampled = resampledBefore.isPresent() && resampledAfter.isPresent();
			// A p99's own spread, by resampling the recorded latencies, where both runs
			// kept them; else the spread of the per-second means (the wrong variance for
			// a p99).
			double error = resampled ? Math.hypot(resampledBefore.getAsDouble(), resampledAfter.getAsDouble())
					: Math.hypot(relativeError(before, Results.Second::meanLatencyMs),
							relativeError(after, Results.Second::meanLatencyMs));
			double bound = Math.max(LATENCY_FLOOR, STANDARD_ERRORS * error);
			double change = (p99After - p99Before) / p99Before;
			rows.add(new Comparison.Row(scenario, name, "p99", millis(p99Before), millis(p99After), percent(change),
					String.format(Locale.ROOT, "+%s (3 standard errors of %s, at least %s)",
							percent(bound).substring(1),
							resampled ? "the p99, by resampling each run's latencies " + P99Spread.RESAMPLES + " times"
									: "the per-second mean latency",
							percent(LATENCY_FLOOR).substring(1)),
					change > bound));
		}
		return rows;
	}

	/**
	 * How far the steps at the ceiling (95 % of it or more) lie from it, relative: the
	 * noise of a ceiling that the same cap measured several times. 2 % when only one step
	 * reached it.
	 */
	static double plateauSpread(SweepFigures sweep) {
		double ceiling = sweep.ceiling().orElse(0);
		double spread = 0;
		int plateau = 0;
		for (double rps : sweep.stepRps()) {
			if (ceiling > 0 && rps >= 0.95 * ceiling) {
				plateau++;
				spread = Math.max(spread, Math.abs(ceiling - rps) / ceiling);
			}
		}
		return (plateau < 2) ? 0.02 : spread;
	}

	/**
	 * The relative standard error of a run's figure from its per-second values (answers a
	 * second, or mean latency a second): the standard deviation over the seconds of the
	 * window, over the square root of their number, over their mean.
	 */
	static double relativeError(Results.Measured run, ToDoubleFunction<Results.Second> column) {
		double[] values = run.perSecond().stream().mapToDouble(column).filter((v) -> !Double.isNaN(v)).toArray();
		if (values.length < 2) {
			return 0.05;
		}
		double mean = Arrays.stream(values).average().orElse(0);
		if (mean <= 0) {
			return 0.05;
		}
		double variance = Arrays.stream(values).map((v) -> (v - mean) * (v - mean)).sum() / (values.length - 1);
		return Math.sqrt(variance) / Math.sqrt(values.length) / mean;
	}

	private static String words(String resource) {
		return resource.toLowerCase(Locale.ROOT).replace('_', ' ');
	}

	private static String rps(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

	private static String millis(double ms) {
		return String.format(Locale.ROOT, "%.0f ms", ms);
	}

	private static String percent(double share) {
		return String.format(Locale.ROOT, "%+.0f %%", share * 100);
	}

	/**
	 * A run held against its {@link Baseline}: a row for each figure compared, before and
	 * after, the change, the bound it was allowed and how that bound was derived.
	 *
	 * @param baseline the baseline's results.json
	 * @param head the results.json held against it; empty for one sweep held against it
	 * in a test
	 * @param rows one per figure compared
	 */
	public record Comparison(Path baseline, Optional<Path> head, List<Row> rows) {

		public Comparison {
			rows = List.copyOf(rows);
		}

		/** Whether any figure regressed beyond its bound. */
		public boolean regressed() {
			return this.rows.stream().anyMatch(Row::regression);
		}

		/** The rows that regressed. */
		public List<Row> regressions() {
			return this.rows.stream().filter(Row::regression).toList();
		}

		/**
		 * A Markdown section: a verdict line, then a table of every row, regressions
		 * marked.
		 */
		public String markdown() {
			StringBuilder md = new StringBuilder("## Compared with the baseline\n\n");
			if (this.rows.isEmpty()) {
				return md.append("No run or sweep of this run is in the baseline (")
					.append(this.baseline)
					.append(").\n")
					.toString();
			}
			md.append(
					regressed() ? "**" + regressions().size() + " regression(s)** against " : "No regression against ")
				.append(this.baseline)
				.append(":\n\n| scenario | run | figure | before | after | change | allowed | |\n|---|---|---|---|---|---|---|---|\n");
			for (Row row : this.rows) {
				md.append("| ")
					.append(row.scenario())
					.append(" | ")
					.append(row.run().replace("|", "\\|"))
					.append(" | ")
					.append(row.figure())
					.append(" | ")
					.append(row.before())
					.append(" | ")
					.append(row.after())
					.append(" | ")
					.append(row.change())
					.append(" | ")
					.append(row.allowed())
					.append(" | ")
					.append(row.regression() ? "**regressed**" : "ok")
					.append(" |\n");
			}
			return md.toString();
		}

		/**
		 * The regressions as lines for an assertion message: "S1 default pool: capped by
		 * was hikari pool; now tomcat threads".
		 */
		public String regressionLines() {
			StringBuilder lines = new StringBuilder();
			for (Row row : regressions()) {
				lines.append(String.format("%n  %s %s: %s was %s; now %s (%s, allowed %s)", row.scenario(), row.run(),
						row.figure(), row.before(), row.after(), row.change(), row.allowed()));
			}
			return lines.toString();
		}

		/**
		 * One figure before and after.
		 *
		 * @param scenario the scenario id
		 * @param run the run's case name or the sweep's name
		 * @param figure what is compared: "capped by", "ceiling", "throughput", "p99"
		 * @param before the baseline's figure
		 * @param after this run's figure
		 * @param change the relative change, or "same" / "changed"
		 * @param allowed the bound and how it was derived
		 * @param regression whether the change is beyond the bound, the wrong way
		 */
		public record Row(String scenario, String run, String figure, String before, String after, String change,
				String allowed, boolean regression) {
		}

	}

}
