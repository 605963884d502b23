package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.ToDoubleFunction;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Results;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
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
 * {@code dev/bottleneckkit/results.schema.json} in the jar; a load's {@code measured}
 * block and a {@code sweep} block are written from the records of
 * {@code internal.Results}, which {@code Baseline} reads back.
 *
 * <pre>
 * { "schema": "bottleneck-kit/results/v1",
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
 *                          "verdict": { "resource", "line", "modelRps", "ceilingRps" } } } ] }
 * </pre>
 */
final class ResultsJson {

	/** The schema's name and version. */
	static final String SCHEMA = Results.SCHEMA;

	private ResultsJson() {
	}

	static String of(List<ReportEntry> entries) {
		Map<String, Object> results = new LinkedHashMap<>();
		results.put("schema", SCHEMA);
		results.put("environment", environment());
		List<Object> runs = new ArrayList<>();
		for (ReportEntry entry : entries) {
			runs.add(run(entry));
		}
		results.put("runs", runs);
		return Json.write(results);
	}

	private static Map<String, Object> environment() {
		Map<String, Object> environment = new LinkedHashMap<>();
		environment.put("cores", Runtime.getRuntime().availableProcessors());
		environment.put("jdk", System.getProperty("java.vendor") + " " + Runtime.version());
		environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
		String imageSet;
		try {
			imageSet = KitImages.imageSet().name().toLowerCase(java.util.Locale.ROOT);
		}
		catch (RuntimeException ex) {
			imageSet = null;
		}
		environment.put("imageSet", imageSet);
		return environment;
	}

	private static Map<String, Object> run(ReportEntry entry) {
		Map<String, Object> run = new LinkedHashMap<>();
		run.put("scenario", entry.scenarioId());
		run.put("title", entry.scenarioTitle());
		run.put("test", entry.testName());
		run.put("case", entry.caseName());
		run.put("kind", (entry.sweep() != null) ? "sweep" : (entry.failureMode() != null) ? "failure-mode" : "load");
		run.put("outcome", entry.outcome());
		LoadResult result = entry.result();
		Map<String, Object> load = new LinkedHashMap<>();
		load.put("users", result.users());
		load.put("offeredRps", result.offeredRps().isPresent() ? result.offeredRps().getAsDouble() : null);
		load.put("warmUp_s", seconds(result.warmUp()));
		load.put("window_s", seconds(result.window()));
		run.put("load", load);
		run.put("model", model(entry));
		run.put("measured", measured(result));
		Map<String, Object> routes = new LinkedHashMap<>();
		result.byRoute().forEach((name, route) -> routes.put(name, measured(route)));
		run.put("routes", routes);
		Map<String, Object> gauges = new LinkedHashMap<>();
		entry.gauges().forEach((whose, timeline) -> gauges.put(whose, maxima(timeline)));
		run.put("gauges", gauges);
		run.put("evidence", new LinkedHashMap<>(entry.evidence()));
		run.put("sweep", (entry.sweep() != null) ? record(entry.sweep()).json() : null);
		return run;
	}

	private static Object model(ReportEntry entry) {
		Ceiling ceiling = entry.ceiling();
		FailureMode failure = entry.failureMode();
		Map<String, Object> model = new LinkedHashMap<>();
		if (ceiling != null) {
			model.put("resource", ceiling.resource());
			model.put("limit", ceiling.limit());
			model.put("latency_ms", millis(ceiling.latency()));
			model.put("rps", ceiling.throughputFor(entry.result()));
			return model;
		}
		if (failure != null) {
			model.put("failureKind", failure.kind());
			model.put("timeToFail_ms", millis(failure.timeToFail()));
			model.put("failuresPerSecond", failure.failuresPerSecondFor(entry.result()).isPresent()
					? failure.failuresPerSecondFor(entry.result()).getAsDouble() : null);
			model.put("why", failure.why());
			return model;
		}
		return null;
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

	private static Map<String, Object> maxima(GaugeTimeline timeline) {
		Map<String, Object> maxima = new LinkedHashMap<>();
		timeline.series()
			.forEach((label, samples) -> maxima.put(label,
					samples.stream().mapToDouble(GaugeTimeline.Sample::value).max().orElse(Double.NaN)));
		return maxima;
	}

	/** {@code sweep} as results.json holds it and a baseline reads it. */
	static Results.Sweep record(SweepResult sweep) {
		List<Results.Step> steps = sweep.steps()
			.stream()
			.map((step) -> new Results.Step(step.users(), step.throughput(),
					(step.result().succeeded() > 0) ? OptionalDouble.of(millis(step.meanLatency()))
							: OptionalDouble.empty(),
					step.result().errorCount(), cores(step, MachineCpu.Use::service),
					cores(step, MachineCpu.Use::machineUsed)))
			.toList();
		OptionalDouble ceiling = sweep.saturated() ? OptionalDouble.of(sweep.ceiling()) : OptionalDouble.empty();
		Verdict verdict = sweep.verdict();
		return new Results.Sweep(sweep.name(), steps, sweep.saturated(), ceiling,
				sweep.knee().map((knee) -> OptionalInt.of(knee.users())).orElse(OptionalInt.empty()),
				millis(sweep.oneUserLatency()),
				new Results.Verdict(verdict.code(), verdict.line(),
						verdict.ceilingModel()
							.map((model) -> OptionalDouble.of(model.rps()))
							.orElse(OptionalDouble.empty()),
						ceiling),
				sweep.nextCap()
					.map((next) -> new Results.NextCap(next.resource().name(), next.what(), next.model().rps())),
				sweep.scalability().map(ResultsJson::fit), sweep.confirmation().map(ResultsJson::confirmation),
				sweep.search().map(ResultsJson::search));
	}

	private static OptionalDouble cores(Step step, ToDoubleFunction<MachineCpu.Use> which) {
		return step.cpu().map((use) -> OptionalDouble.of(which.applyAsDouble(use))).orElse(OptionalDouble.empty());
	}

	private static Results.Fit fit(Scalability fit) {
		return new Results.Fit(fit.lambda(), fit.sigma(), fit.kappa(), fit.capacity(), fit.capacityLow(),
				fit.capacityHigh(), fit.peakUsers(), fit.measuredUpToUsers(), fit.capacityWithinReach());
	}

	private static Results.Confirmation confirmation(Confirmation confirmation) {
		return new Results.Confirmation(confirmation.knob(), confirmation.confirmed(), confirmation.ceilingBefore(),
				confirmation.ceilingAfter(), confirmation.predicted(), confirmation.predictedBy(), confirmation.line(),
				seconds(confirmation.took()));
	}

	private static Results.Search search(Search search) {
		return new Results.Search(search.target(), search.found().map(Search.Try::knob), search.starts(),
				search.tries()
					.stream()
					.map((attempt) -> new Results.Search.Try(attempt.knob(), attempt.limit(), attempt.predicted(),
							attempt.measured()))
					.toList(),
				search.unreachable(), search.line(), seconds(search.took()));
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

}
