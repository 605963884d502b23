package dev.bottleneckkit.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code results.json} as records, from its outer layout (schema, environment, runs) to
 * each load's {@code measured} block and each {@code sweep} block: the report writes them
 * ({@code ResultsJson}) and the baseline reads them back ({@code Baseline}), so every key
 * is spelled here, once, in both directions. The published schema is
 * {@code dev/bottleneckkit/results.schema.json}; a figure that was not measured is
 * {@code null} there and empty here.
 */
public final class Results {

	/**
	 * The schema's name and version; fields are only ever added within a version (v2
	 * added a sweep's A/B comparison).
	 */
	public static final String SCHEMA = "bottleneck-kit/results/v2";

	private Results() {
	}

	/**
	 * The whole file.
	 *
	 * @param schema the schema's name and version, {@value #SCHEMA}
	 * @param environment the machine and JDK the runs were measured on
	 * @param runs every load and sweep, in the report's order
	 */
	public record File(String schema, Environment environment, List<Run> runs) {

		public File {
			runs = List.copyOf(runs);
		}

		/** The file as results.json holds it. */
		public Map<String, Object> json() {
			return Json.object("schema", this.schema, "environment", this.environment.json(), "runs",
					this.runs.stream().map((run) -> (Object) run.json()).toList());
		}

		/** The file {@code json} holds, as {@link #json()} wrote it. */
		public static File read(Object json) {
			List<Run> runs = new ArrayList<>();
			for (Object run : Json.array(json, "runs")) {
				runs.add(Run.read(run));
			}
			return new File(Json.string(json, "", "schema"), Environment.read(Json.path(json, "environment")), runs);
		}

	}

	/**
	 * Where the runs were measured.
	 *
	 * @param cores the JVM's available processors
	 * @param jdk the JDK's vendor and version
	 * @param os the operating system and architecture
	 * @param imageSet the kit's image set ({@code official} or {@code offline}), when
	 * known
	 */
	public record Environment(int cores, String jdk, String os, Optional<String> imageSet) {

		Map<String, Object> json() {
			return Json.object("cores", this.cores, "jdk", this.jdk, "os", this.os, "imageSet",
					this.imageSet.orElse(null));
		}

		static Environment read(Object json) {
			return new Environment((int) Json.number(json, "cores"), Json.string(json, "", "jdk"),
					Json.string(json, "", "os"), Optional.ofNullable(Json.path(json, "imageSet")).map(String::valueOf));
		}

	}

	/**
	 * What a run of results.json is: a load held to a ceiling, a failure mode, or a
	 * sweep.
	 */
	public enum Kind {

		/** A load held to its ceiling. */
		LOAD("load"),

		/** A load that proves a failure mode. */
		FAILURE_MODE("failure-mode"),

		/** A sweep. */
		SWEEP("sweep");

		private final String json;

		Kind(String json) {
			this.json = json;
		}

		/** As results.json names it. */
		public String json() {
			return this.json;
		}

		static Kind read(String json) {
			for (Kind kind : values()) {
				if (kind.json.equals(json)) {
					return kind;
				}
			}
			throw new IllegalArgumentException("a run's kind is load, failure-mode or sweep, was '" + json + "'");
		}

	}

	/**
	 * One load or sweep of one scenario test.
	 *
	 * @param scenario the scenario's id
	 * @param title the scenario's title
	 * @param test the test method
	 * @param caseName the run's name in the report ({@code case} in the file)
	 * @param kind what the run is
	 * @param outcome {@code passed}, {@code running}, or {@code failed: } and the failure
	 * @param load the load: users (or offered rate), warm-up and window
	 * @param model what the run is held to: a ceiling or a failure mode; empty for a
	 * sweep
	 * @param measured what the load measured (a sweep's last step)
	 * @param routes each route's figures, by name
	 * @param gauges each watched service's gauge maxima, by whose they are
	 * @param evidence the evidence the test recorded, in its order
	 * @param sweep the sweep, for a run of that kind
	 */
	public record Run(String scenario, String title, String test, String caseName, Kind kind, String outcome, Load load,
			Optional<Model> model, Measured measured, Map<String, Measured> routes,
			Map<String, Map<String, Double>> gauges, Map<String, String> evidence, Optional<SweepRecord> sweep) {

		public Run {
			routes = Collections.unmodifiableMap(new LinkedHashMap<>(routes));
			gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
			evidence = Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
		}

		Map<String, Object> json() {
			Map<String, Object> routes = new LinkedHashMap<>();
			this.routes.forEach((name, route) -> routes.put(name, route.json()));
			return Json.object("scenario", this.scenario, "title", this.title, "test", this.test, "case", this.caseName,
					"kind", this.kind.json(), "outcome", this.outcome, "load", this.load.json(), "model",
					this.model.map(Model::json).orElse(null), "measured", this.measured.json(), "routes", routes,
					"gauges", new LinkedHashMap<>(this.gauges), "evidence", new LinkedHashMap<>(this.evidence), "sweep",
					this.sweep.map(SweepRecord::json).orElse(null));
		}

		static Run read(Object json) {
			Map<String, Measured> routes = new LinkedHashMap<>();
			Json.entries(json, "routes").forEach((name, route) -> routes.put(name, Measured.read(route)));
			Map<String, Map<String, Double>> gauges = new LinkedHashMap<>();
			Json.entries(json, "gauges").forEach((name, maxima) -> {
				Map<String, Double> read = new LinkedHashMap<>();
				Json.entries(maxima).forEach((gauge, max) -> read.put(gauge, Json.number(max)));
				gauges.put(name, read);
			});
			Map<String, String> evidence = new LinkedHashMap<>();
			Json.entries(json, "evidence").forEach((name, text) -> evidence.put(name, String.valueOf(text)));
			Kind kind = Kind.read(Json.string(json, "", "kind"));
			Object model = Json.path(json, "model");
			return new Run(Json.string(json, "", "scenario"), Json.string(json, "", "title"),
					Json.string(json, "", "test"), Json.string(json, "", "case"), kind,
					Json.string(json, "", "outcome"), Load.read(Json.path(json, "load")),
					Optional.ofNullable(model).map(Model::read), Measured.read(Json.path(json, "measured")), routes,
					gauges, evidence, Optional.ofNullable(Json.path(json, "sweep")).map(SweepRecord::read));
		}

	}

	/**
	 * A run's load.
	 *
	 * @param users a closed loop's users, or an open loop's bound on requests in flight
	 * @param offeredRps an open loop's offered rate
	 * @param warmUpSeconds the warm-up before the window
	 * @param windowSeconds the measured window
	 */
	public record Load(int users, OptionalDouble offeredRps, double warmUpSeconds, double windowSeconds) {

		Map<String, Object> json() {
			return Json.object("users", this.users, "offeredRps", Json.orNull(this.offeredRps), "warmUp_s",
					this.warmUpSeconds, "window_s", this.windowSeconds);
		}

		static Load read(Object json) {
			return new Load((int) Json.number(json, "users"), Json.optionalNumber(json, "offeredRps"),
					Json.number(json, "warmUp_s"), Json.number(json, "window_s"));
		}

	}

	/** What a load is held to: a ceiling, or the failure mode it proves. */
	public sealed interface Model permits CeilingModel, FailureModel {

		/** The block as results.json holds it. */
		Map<String, Object> json();

		/** A ceiling's block has a resource; a failure mode's a failure kind. */
		static Model read(Object json) {
			return (Json.path(json, "failureKind") != null) ? FailureModel.read(json) : CeilingModel.read(json);
		}

	}

	/**
	 * A ceiling: {@code limit} units of {@code resource}, each held {@code latencyMs}.
	 *
	 * @param resource what caps the load
	 * @param limit how many serve at once
	 * @param latencyMs how long one request holds one
	 * @param rps what the ceiling allows the run's users
	 */
	public record CeilingModel(String resource, double limit, double latencyMs, double rps) implements Model {

		@Override
		public Map<String, Object> json() {
			return Json.object("resource", this.resource, "limit", this.limit, "latency_ms", this.latencyMs, "rps",
					this.rps);
		}

		static CeilingModel read(Object json) {
			return new CeilingModel(Json.string(json, "", "resource"), Json.number(json, "limit"),
					Json.number(json, "latency_ms"), Json.number(json, "rps"));
		}

	}

	/**
	 * A failure mode the run proves.
	 *
	 * @param failureKind the failures' kind ({@code http-504 read-timeout})
	 * @param timeToFailMs how long a failure takes
	 * @param failuresPerSecond the failures a second the model expects, when it says
	 * @param why the mechanism, in words
	 */
	public record FailureModel(String failureKind, double timeToFailMs, OptionalDouble failuresPerSecond,
			String why) implements Model {

		@Override
		public Map<String, Object> json() {
			return Json.object("failureKind", this.failureKind, "timeToFail_ms", this.timeToFailMs, "failuresPerSecond",
					Json.orNull(this.failuresPerSecond), "why", this.why);
		}

		static FailureModel read(Object json) {
			return new FailureModel(Json.string(json, "", "failureKind"), Json.number(json, "timeToFail_ms"),
					Json.optionalNumber(json, "failuresPerSecond"), Json.string(json, "", "why"));
		}

	}

	/**
	 * What a load measured over its window.
	 *
	 * @param rps successful requests per second
	 * @param succeeded successful requests
	 * @param errors failed requests by kind
	 * @param errorsPerSecond failed requests per second
	 * @param latency the answers' latencies; empty when none succeeded
	 * @param latencyHistogram the answers' latencies as an HdrHistogram (compressed,
	 * Base64, microseconds); empty when none succeeded
	 * @param generatorBusy the share of the window the load generator's loop was busy
	 * @param perSecond each second of the window
	 */
	public record Measured(double rps, long succeeded, Map<String, Long> errors, double errorsPerSecond,
			Optional<Latency> latency, Optional<String> latencyHistogram, double generatorBusy,
			List<Second> perSecond) {

		public Measured {
			errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
			perSecond = List.copyOf(perSecond);
		}

		/** The block as results.json holds it. */
		public Map<String, Object> json() {
			return Json.object("rps", this.rps, "succeeded", this.succeeded, "errors", new LinkedHashMap<>(this.errors),
					"errorsPerSecond", this.errorsPerSecond, "latency_ms",
					Json.object("mean", this.latency.map(Latency::mean).orElse(null), "p50",
							this.latency.map(Latency::p50).orElse(null), "p90",
							this.latency.map(Latency::p90).orElse(null), "p99",
							this.latency.map(Latency::p99).orElse(null), "max",
							this.latency.map(Latency::max).orElse(null)),
					"latencyHistogram", this.latencyHistogram.orElse(null), "generatorBusy", this.generatorBusy,
					"perSecond",
					this.perSecond.stream()
						.map((second) -> (Object) List.of(second.succeeded(), second.failed(), second.meanLatencyMs()))
						.toList());
		}

		/** The block {@code json} holds, as {@link #json()} wrote it. */
		public static Measured read(Object json) {
			Map<String, Long> errors = new LinkedHashMap<>();
			Json.entries(json, "errors").forEach((kind, count) -> errors.put(kind, Math.round(Json.number(count))));
			OptionalDouble mean = Json.optionalNumber(json, "latency_ms", "mean");
			Optional<Latency> latency = mean.isPresent() ? Optional.of(new Latency(mean.getAsDouble(),
					Json.number(json, "latency_ms", "p50"), Json.number(json, "latency_ms", "p90"),
					Json.number(json, "latency_ms", "p99"), Json.number(json, "latency_ms", "max"))) : Optional.empty();
			List<Second> perSecond = new ArrayList<>();
			for (Object row : Json.array(json, "perSecond")) {
				if (row instanceof List<?> values && values.size() == 3) {
					perSecond.add(new Second(Math.round(Json.number(values.get(0))),
							Math.round(Json.number(values.get(1))), Json.number(values.get(2))));
				}
			}
			return new Measured(Json.number(json, "rps"), Math.round(Json.number(json, "succeeded")), errors,
					Json.number(json, "errorsPerSecond"), latency,
					Optional.ofNullable(Json.path(json, "latencyHistogram")).map(String::valueOf),
					Json.number(json, "generatorBusy"), perSecond);
		}

	}

	/**
	 * The answers' latencies, in milliseconds.
	 *
	 * @param mean the mean
	 * @param p50 the median
	 * @param p90 the 90th percentile
	 * @param p99 the 99th percentile
	 * @param max the longest
	 */
	public record Latency(double mean, double p50, double p90, double p99, double max) {
	}

	/**
	 * One second of a window.
	 *
	 * @param succeeded answers that second
	 * @param failed failures that second
	 * @param meanLatencyMs the mean latency of that second's answers, 0 without any
	 */
	public record Second(long succeeded, long failed, double meanLatencyMs) {
	}

}
