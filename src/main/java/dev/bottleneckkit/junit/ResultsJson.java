package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResult.Confirmation;
import dev.bottleneckkit.sweep.SweepResult.Scalability;
import dev.bottleneckkit.sweep.Verdict;

/**
 * {@code results.json}: every run and sweep of the report as data a pipeline reads. The
 * schema is versioned ({@value #SCHEMA}); fields are only ever added within a version.
 * Times are in milliseconds ({@code _ms}) or seconds ({@code _s}), throughputs in
 * requests per second; a figure that was not measured is {@code null}.
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
	static final String SCHEMA = "bottleneck-kit/results/v1";

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
		run.put("sweep", (entry.sweep() != null) ? sweep(entry.sweep()) : null);
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
		Map<String, Object> measured = new LinkedHashMap<>();
		measured.put("rps", result.throughput());
		measured.put("succeeded", result.succeeded());
		measured.put("errors", new LinkedHashMap<>(result.errors()));
		measured.put("errorsPerSecond", result.errorsPerSecond());
		Map<String, Object> latency = new LinkedHashMap<>();
		boolean answered = result.succeeded() > 0;
		latency.put("mean", answered ? millis(result.meanLatency()) : null);
		latency.put("p50", answered ? millis(result.latencyAt(50)) : null);
		latency.put("p90", answered ? millis(result.latencyAt(90)) : null);
		latency.put("p99", answered ? millis(result.latencyAt(99)) : null);
		latency.put("max", answered ? millis(result.maxLatency()) : null);
		measured.put("latency_ms", latency);
		measured.put("latencyHistogram", answered ? result.latencyHistogram() : null);
		measured.put("generatorBusy", result.generatorBusy());
		List<Object> perSecond = new ArrayList<>();
		for (LoadResult.Second second : result.timeline()) {
			if (second.inWindow()) {
				perSecond.add(List.of(second.succeeded(), second.failed(), second.meanLatencyMs()));
			}
		}
		measured.put("perSecond", perSecond);
		return measured;
	}

	private static Map<String, Object> maxima(GaugeTimeline timeline) {
		Map<String, Object> maxima = new LinkedHashMap<>();
		timeline.series()
			.forEach((label, samples) -> maxima.put(label,
					samples.stream().mapToDouble(GaugeTimeline.Sample::value).max().orElse(Double.NaN)));
		return maxima;
	}

	private static Map<String, Object> sweep(SweepResult sweep) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("name", sweep.name());
		List<Object> steps = new ArrayList<>();
		for (Step step : sweep.steps()) {
			Map<String, Object> each = new LinkedHashMap<>();
			each.put("users", step.users());
			each.put("rps", step.throughput());
			each.put("meanLatency_ms", (step.result().succeeded() > 0) ? millis(step.meanLatency()) : null);
			each.put("errors", step.result().errorCount());
			each.put("serviceCores", step.cpu().map(MachineCpu.Use::service).orElse(null));
			each.put("machineCores", step.cpu().map(MachineCpu.Use::machineUsed).orElse(null));
			steps.add(each);
		}
		result.put("steps", steps);
		result.put("saturated", sweep.saturated());
		result.put("ceilingRps", sweep.saturated() ? sweep.ceiling() : null);
		result.put("kneeUsers", sweep.knee().map(Step::users).orElse(null));
		result.put("oneUserLatency_ms", millis(sweep.oneUserLatency()));
		Map<String, Object> verdict = new LinkedHashMap<>();
		verdict.put("resource", sweep.verdict().code());
		verdict.put("line", sweep.verdict().line());
		verdict.put("modelRps", sweep.verdict().ceilingModel().map(Verdict.Model::rps).orElse(null));
		verdict.put("ceilingRps", sweep.saturated() ? sweep.ceiling() : null);
		result.put("verdict", verdict);
		result.put("nextCap",
				sweep.nextCap()
					.map((next) -> Map.<String, Object>of("resource", next.resource().name(), "what", next.what(),
							"modelRps", next.model().rps()))
					.orElse(null));
		result.put("fit", sweep.scalability().map(ResultsJson::fit).orElse(null));
		result.put("confirmation", sweep.confirmation().map(ResultsJson::confirmation).orElse(null));
		return result;
	}

	private static Map<String, Object> fit(Scalability fit) {
		Map<String, Object> usl = new LinkedHashMap<>();
		usl.put("law", "usl");
		usl.put("lambda", fit.lambda());
		usl.put("sigma", fit.sigma());
		usl.put("kappa", fit.kappa());
		usl.put("capacityRps", fit.capacity().isPresent() ? fit.capacity().getAsDouble() : null);
		usl.put("capacityLowRps", fit.capacityLow().isPresent() ? fit.capacityLow().getAsDouble() : null);
		usl.put("capacityHighRps", fit.capacityHigh().isPresent() ? fit.capacityHigh().getAsDouble() : null);
		usl.put("peakUsers", fit.peakUsers().isPresent() ? fit.peakUsers().getAsDouble() : null);
		usl.put("measuredUpToUsers", fit.measuredUpToUsers());
		usl.put("capacityWithinReach", fit.capacityWithinReach());
		return usl;
	}

	private static Map<String, Object> confirmation(Confirmation confirmation) {
		Map<String, Object> tested = new LinkedHashMap<>();
		tested.put("knob", confirmation.knob());
		tested.put("confirmed", confirmation.confirmed());
		tested.put("ceilingBeforeRps", confirmation.ceilingBefore());
		tested.put("ceilingAfterRps", confirmation.ceilingAfter());
		tested.put("predictedRps", confirmation.predicted());
		tested.put("predictedBy", confirmation.predictedBy());
		tested.put("line", confirmation.line());
		tested.put("took_s", seconds(confirmation.took()));
		tested.put("restore_s", seconds(confirmation.restore()));
		return tested;
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

}
