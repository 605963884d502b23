package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.ToDoubleFunction;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Results;
import dev.bottleneckkit.internal.SweepRecord;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Scalability;
import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;

/**
 * {@code results.json}: every run and sweep of the report as data a pipeline reads. The
 * schema is versioned ({@value #SCHEMA}); fields are only ever added within a version.
 * Times are in milliseconds ({@code _ms}) or seconds ({@code _s}), throughputs in
 * requests per second; a figure that was not measured is {@code null}. The JSON Schema is
 * {@code dev/bottleneckkit/results.schema.json} in the jar; the whole file is written
 * from the records of {@code internal.Results} (a sweep's block from
 * {@code internal.SweepRecord}), which {@code Baseline} reads back.
 *
 * <pre>
 * { "schema": "bottleneck-kit/results/v2",
 *   "environment": { "cores", "jdk", "os", "imageSet" },
 *   "runs": [ { "scenario", "title", "test", "case", "kind": "load" | "sweep" | "failure-mode", "outcome",
 *               "load": { "users", "offeredRps", "warmUp_s", "window_s" },
 *               "model": { "resource", "limit", "latency_ms", "rps" } | { "failureKind", "timeToFail_ms",
 *                          "failuresPerSecond", "why" } | null,
 *               "measured": { "rps", "succeeded", "errors": { kind: count }, "errorsPerSecond",
 *                             "latency_ms": { "mean", "p50", "p90", "p99", "max" }, "generatorBusy",
 *                             "latencyHistogram": HdrHistogram, compressed, Base64, microseconds,
 *                             "perSecond": [ [ succeeded, failed, meanLatency_ms ] for each second of the window ] },
 *               "routes": { name: measured }, "gauges": { whose: { gauge: max } }, "evidence": { name: text },
 *               "sweep": { "name", "steps": [ { "users", "rps", "meanLatency_ms", "errors", "serviceCores" } ],
 *                          "saturated", "ceilingRps", "kneeUsers", "oneUserLatency_ms",
 *                          "verdict": { "resource", "line", "modelRps", "ceilingRps" }, "nextCap", "fit",
 *                          "confirmation", "search", "comparison": { "baseImage", "headImage", "figures":
 *                          [ { "name", "ratio", "low", "high", "change" } ], "regressed", … } } } ] }
 * </pre>
 */
final class ResultsJson {

	/** The schema's name and version. */
	static final String SCHEMA = Results.SCHEMA;

	private ResultsJson() {
	}

	static String of(List<ReportEntry> entries) {
		return Json.write(file(entries).json());
	}

	/** {@code entries} as the records of results.json. */
	static Results.File file(List<ReportEntry> entries) {
		return new Results.File(SCHEMA, environment(), entries.stream().map(ResultsJson::run).toList());
	}

	private static Results.Environment environment() {
		Optional<String> imageSet;
		try {
			imageSet = Optional.of(KitImages.imageSet().name().toLowerCase(Locale.ROOT));
		}
		catch (RuntimeException ex) {
			imageSet = Optional.empty();
		}
		return new Results.Environment(Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.vendor") + " " + Runtime.version(),
				System.getProperty("os.name") + " " + System.getProperty("os.arch"), imageSet);
	}

	private static Results.Run run(ReportEntry entry) {
		LoadResult result = entry.result();
		Results.Load load = new Results.Load(result.users(), result.offeredRps(), seconds(result.warmUp()),
				seconds(result.window()));
		Map<String, Results.Measured> routes = new LinkedHashMap<>();
		result.byRoute().forEach((name, route) -> routes.put(name, record(route)));
		Map<String, Map<String, Double>> gauges = new LinkedHashMap<>();
		entry.gauges().forEach((whose, timeline) -> gauges.put(whose, maxima(timeline)));
		Results.Kind kind = switch (entry) {
			case ReportEntry.Load l -> Results.Kind.LOAD;
			case ReportEntry.Failing f -> Results.Kind.FAILURE_MODE;
			case ReportEntry.Swept s -> Results.Kind.SWEEP;
		};
		Optional<SweepRecord> sweep = (entry instanceof ReportEntry.Swept swept) ? Optional.of(record(swept.sweep()))
				: Optional.empty();
		return new Results.Run(entry.scenarioId(), entry.scenarioTitle(), entry.testName(), entry.caseName(), kind,
				entry.outcome(), load, model(entry), record(result), routes, gauges, entry.evidence(), sweep);
	}

	private static Optional<Results.Model> model(ReportEntry entry) {
		return switch (entry) {
			case ReportEntry.Load load -> {
				Ceiling ceiling = load.ceiling();
				yield Optional.of(new Results.CeilingModel(ceiling.resource(), ceiling.limit(),
						millis(ceiling.latency()), ceiling.throughputFor(entry.result())));
			}
			case ReportEntry.Failing failing -> {
				FailureMode failure = failing.failureMode();
				yield Optional.of(new Results.FailureModel(failure.kind(), millis(failure.timeToFail()),
						failure.failuresPerSecondFor(entry.result()), failure.why()));
			}
			case ReportEntry.Swept swept -> Optional.empty();
		};
	}

	static Map<String, Object> measured(LoadResult result) {
		return record(result).json();
	}

	/** What {@code result} measured, as results.json holds it and a baseline reads it. */
	static Results.Measured record(LoadResult result) {
		Optional<Results.Latency> latency = (result.succeeded() > 0)
				? Optional.of(new Results.Latency(millis(result.meanLatency()), millis(result.latencyAt(50)),
						millis(result.latencyAt(90)), millis(result.latencyAt(99)), millis(result.maxLatency())))
				: Optional.empty();
		List<Results.Second> perSecond = result.timeline()
			.stream()
			.filter(LoadResult.Second::inWindow)
			.map((second) -> new Results.Second(second.succeeded(), second.failed(), second.meanLatencyMs()))
			.toList();
		return new Results.Measured(result.throughput(), result.succeeded(), result.errors(), result.errorsPerSecond(),
				latency, (result.succeeded() > 0) ? Optional.of(result.latencyHistogram()) : Optional.empty(),
				result.generatorBusy(), perSecond);
	}

	private static Map<String, Double> maxima(GaugeTimeline timeline) {
		Map<String, Double> maxima = new LinkedHashMap<>();
		timeline.series()
			.forEach((label, samples) -> maxima.put(label,
					samples.stream().mapToDouble(GaugeTimeline.Sample::value).max().orElse(Double.NaN)));
		return maxima;
	}

	/** {@code sweep} as results.json holds it and a baseline reads it. */
	static SweepRecord record(SweepResult sweep) {
		List<SweepRecord.Step> steps = sweep.steps()
			.stream()
			.map((step) -> new SweepRecord.Step(step.users(), step.throughput(),
					(step.result().succeeded() > 0) ? OptionalDouble.of(millis(step.meanLatency()))
							: OptionalDouble.empty(),
					step.result().errorCount(), cores(step, Step.Cpu::service), cores(step, Step.Cpu::machineUsed),
					step.compilerCores()))
			.toList();
		OptionalDouble ceiling = sweep.saturated() ? OptionalDouble.of(sweep.ceiling()) : OptionalDouble.empty();
		Verdict verdict = sweep.verdict();
		return new SweepRecord(sweep.name(), steps, sweep.saturated(), ceiling,
				sweep.knee().map((knee) -> OptionalInt.of(knee.users())).orElse(OptionalInt.empty()),
				millis(sweep.oneUserLatency()),
				new SweepRecord.Verdict(verdict.code(), verdict.line(),
						verdict.ceilingModel()
							.map((model) -> OptionalDouble.of(model.rps()))
							.orElse(OptionalDouble.empty()),
						ceiling),
				sweep.nextCap()
					.map((next) -> new SweepRecord.NextCap(next.resource().name(), next.what(), next.model().rps())),
				sweep.scalability().map(ResultsJson::fit), sweep.confirmation().map(ResultsJson::confirmation),
				sweep.search().map(ResultsJson::search), sweep.comparison().map(ResultsJson::comparison));
	}

	private static OptionalDouble cores(Step step, ToDoubleFunction<Step.Cpu> which) {
		return step.cpu().map((use) -> OptionalDouble.of(which.applyAsDouble(use))).orElse(OptionalDouble.empty());
	}

	private static SweepRecord.Fit fit(Scalability fit) {
		return new SweepRecord.Fit(fit.lambda(), fit.sigma(), fit.kappa(), fit.capacity(), fit.capacityLow(),
				fit.capacityHigh(), fit.peakUsers(), fit.measuredUpToUsers(), fit.capacityWithinReach());
	}

	private static SweepRecord.Confirmation confirmation(Confirmation confirmation) {
		return new SweepRecord.Confirmation(confirmation.knob(), confirmation.confirmed(), confirmation.ceilingBefore(),
				confirmation.ceilingAfter(), confirmation.predicted(), confirmation.predictedBy(), confirmation.line(),
				seconds(confirmation.took()));
	}

	private static SweepRecord.Search search(Search search) {
		return new SweepRecord.Search(search.target(), search.found().map(Search.Try::knob), search.starts(),
				search.tries()
					.stream()
					.map((attempt) -> new SweepRecord.Search.Try(attempt.knob(), attempt.limit(), attempt.predicted(),
							attempt.measured()))
					.toList(),
				search.unreachable(), search.line(), seconds(search.took()));
	}

	private static SweepRecord.Comparison comparison(ABComparison comparison) {
		double bound = comparison.bound();
		return new SweepRecord.Comparison(comparison.baseImage(), comparison.headImage(), comparison.sameImage(),
				comparison.kneeUsers(), comparison.ceilingUsers(), comparison.baseCap(), comparison.headCap(),
				comparison.capMoved(), comparison.blocks(), comparison.seed(),
				comparison.figures()
					.stream()
					.map((figure) -> new SweepRecord.Comparison.Figure(figure.name(), figure.unit(), figure.base(),
							figure.head(), figure.ratio(), figure.low(), figure.high(), figure.noise(),
							figure.higherIsBetter(),
							figure.change(bound).name().toLowerCase(Locale.ROOT).replace('_', ' ')))
					.toList(),
				comparison.regressed(bound), comparison.lines(bound), seconds(comparison.took()));
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

}
