package dev.bottleneckkit.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The figures of {@code results.json} that a pipeline compares, as records: the report
 * writes them ({@code ResultsJson}) and the baseline reads them back ({@code Baseline}),
 * so every key of a load's {@code measured} block and of a {@code sweep} block is spelled
 * here, once, in both directions. The published schema is
 * {@code dev/bottleneckkit/results.schema.json}; a figure that was not measured is
 * {@code null} there and empty here.
 */
public final class Results {

	/** The schema's name and version; fields are only ever added within a version. */
	public static final String SCHEMA = "bottleneck-kit/results/v1";

	private Results() {
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
			Map<String, Object> measured = new LinkedHashMap<>();
			measured.put("rps", this.rps);
			measured.put("succeeded", this.succeeded);
			measured.put("errors", new LinkedHashMap<>(this.errors));
			measured.put("errorsPerSecond", this.errorsPerSecond);
			Map<String, Object> latency = new LinkedHashMap<>();
			latency.put("mean", this.latency.map(Latency::mean).orElse(null));
			latency.put("p50", this.latency.map(Latency::p50).orElse(null));
			latency.put("p90", this.latency.map(Latency::p90).orElse(null));
			latency.put("p99", this.latency.map(Latency::p99).orElse(null));
			latency.put("max", this.latency.map(Latency::max).orElse(null));
			measured.put("latency_ms", latency);
			measured.put("latencyHistogram", this.latencyHistogram.orElse(null));
			measured.put("generatorBusy", this.generatorBusy);
			measured.put("perSecond",
					this.perSecond.stream()
						.map((second) -> (Object) List.of(second.succeeded(), second.failed(), second.meanLatencyMs()))
						.toList());
			return measured;
		}

		/** The block {@code json} holds, as {@link #json()} wrote it. */
		public static Measured read(Object json) {
			Map<String, Long> errors = new LinkedHashMap<>();
			if (Json.path(json, "errors") instanceof Map<?, ?> kinds) {
				kinds.forEach((kind, count) -> errors.put(String.valueOf(kind), Math.round(number(count))));
			}
			OptionalDouble mean = optional(json, "latency_ms", "mean");
			Optional<Latency> latency = mean.isPresent() ? Optional.of(new Latency(mean.getAsDouble(),
					Json.number(json, "latency_ms", "p50"), Json.number(json, "latency_ms", "p90"),
					Json.number(json, "latency_ms", "p99"), Json.number(json, "latency_ms", "max"))) : Optional.empty();
			List<Second> perSecond = new ArrayList<>();
			for (Object row : Json.array(json, "perSecond")) {
				if (row instanceof List<?> values && values.size() == 3) {
					perSecond.add(new Second(Math.round(number(values.get(0))), Math.round(number(values.get(1))),
							number(values.get(2))));
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

	/**
	 * A sweep: its steps, its ceiling and its verdict.
	 *
	 * @param name the sweep's name
	 * @param steps each step, fewest users first
	 * @param saturated whether doubling the users stopped raising throughput
	 * @param ceilingRps the ceiling; empty when the sweep found none
	 * @param kneeUsers the users of the step where the ceiling began
	 * @param oneUserLatencyMs W₁, the latency of one user alone
	 * @param verdict what caps the route
	 * @param nextCap the resource whose ceiling comes next
	 * @param fit the Universal Scalability Law fitted to the steps
	 * @param confirmation the verdict put to the test by its knob
	 * @param search the smallest limit searched for a throughput
	 */
	public record Sweep(String name, List<Step> steps, boolean saturated, OptionalDouble ceilingRps,
			OptionalInt kneeUsers, double oneUserLatencyMs, Verdict verdict, Optional<NextCap> nextCap,
			Optional<Fit> fit, Optional<Confirmation> confirmation, Optional<Search> search) {

		public Sweep {
			steps = List.copyOf(steps);
		}

		/** The block as results.json holds it. */
		public Map<String, Object> json() {
			Map<String, Object> sweep = new LinkedHashMap<>();
			sweep.put("name", this.name);
			sweep.put("steps", this.steps.stream().map((step) -> (Object) step.json()).toList());
			sweep.put("saturated", this.saturated);
			sweep.put("ceilingRps", orNull(this.ceilingRps));
			sweep.put("kneeUsers", this.kneeUsers.isPresent() ? this.kneeUsers.getAsInt() : null);
			sweep.put("oneUserLatency_ms", this.oneUserLatencyMs);
			sweep.put("verdict", this.verdict.json());
			sweep.put("nextCap", this.nextCap.map(NextCap::json).orElse(null));
			sweep.put("fit", this.fit.map(Fit::json).orElse(null));
			sweep.put("confirmation", this.confirmation.map(Confirmation::json).orElse(null));
			sweep.put("search", this.search.map(Search::json).orElse(null));
			return sweep;
		}

		/** The block {@code json} holds, as {@link #json()} wrote it. */
		public static Sweep read(Object json) {
			List<Step> steps = new ArrayList<>();
			for (Object step : Json.array(json, "steps")) {
				steps.add(Step.read(step));
			}
			OptionalDouble knee = optional(json, "kneeUsers");
			return new Sweep(Json.string(json, "", "name"), steps, Boolean.TRUE.equals(Json.path(json, "saturated")),
					optional(json, "ceilingRps"),
					knee.isPresent() ? OptionalInt.of((int) knee.getAsDouble()) : OptionalInt.empty(),
					Json.number(json, "oneUserLatency_ms"), Verdict.read(Json.path(json, "verdict")),
					Optional.ofNullable(Json.path(json, "nextCap")).map(NextCap::read),
					Optional.ofNullable(Json.path(json, "fit")).map(Fit::read),
					Optional.ofNullable(Json.path(json, "confirmation")).map(Confirmation::read),
					Optional.ofNullable(Json.path(json, "search")).map(Search::read));
		}

	}

	/**
	 * One step of a sweep.
	 *
	 * @param users the closed loop's users
	 * @param rps successful requests per second
	 * @param meanLatencyMs the mean latency; empty when none succeeded
	 * @param errors failed requests
	 * @param serviceCores the service's CPU, in cores
	 * @param machineCores the machine's CPU in use, in cores
	 */
	public record Step(int users, double rps, OptionalDouble meanLatencyMs, long errors, OptionalDouble serviceCores,
			OptionalDouble machineCores) {

		Map<String, Object> json() {
			Map<String, Object> step = new LinkedHashMap<>();
			step.put("users", this.users);
			step.put("rps", this.rps);
			step.put("meanLatency_ms", orNull(this.meanLatencyMs));
			step.put("errors", this.errors);
			step.put("serviceCores", orNull(this.serviceCores));
			step.put("machineCores", orNull(this.machineCores));
			return step;
		}

		static Step read(Object json) {
			return new Step((int) Json.number(json, "users"), Json.number(json, "rps"),
					optional(json, "meanLatency_ms"), Math.round(Json.number(json, "errors")),
					optional(json, "serviceCores"), optional(json, "machineCores"));
		}

	}

	/**
	 * A sweep's verdict.
	 *
	 * @param resource the resource's code ({@code HIKARI_POOL}, {@code NONE},
	 * {@code UNEXPLAINED}, …)
	 * @param line the verdict as the console printed it
	 * @param modelRps the named resource's model
	 * @param ceilingRps the ceiling it explains
	 */
	public record Verdict(String resource, String line, OptionalDouble modelRps, OptionalDouble ceilingRps) {

		Map<String, Object> json() {
			Map<String, Object> verdict = new LinkedHashMap<>();
			verdict.put("resource", this.resource);
			verdict.put("line", this.line);
			verdict.put("modelRps", orNull(this.modelRps));
			verdict.put("ceilingRps", orNull(this.ceilingRps));
			return verdict;
		}

		static Verdict read(Object json) {
			return new Verdict(Json.string(json, "NONE", "resource"), Json.string(json, "", "line"),
					optional(json, "modelRps"), optional(json, "ceilingRps"));
		}

	}

	/**
	 * The resource whose own ceiling comes next.
	 *
	 * @param resource its name
	 * @param what what was read of it
	 * @param modelRps its ceiling by its model
	 */
	public record NextCap(String resource, String what, double modelRps) {

		Map<String, Object> json() {
			Map<String, Object> next = new LinkedHashMap<>();
			next.put("resource", this.resource);
			next.put("what", this.what);
			next.put("modelRps", this.modelRps);
			return next;
		}

		static NextCap read(Object json) {
			return new NextCap(Json.string(json, "", "resource"), Json.string(json, "", "what"),
					Json.number(json, "modelRps"));
		}

	}

	/**
	 * The Universal Scalability Law fitted to a sweep's steps.
	 *
	 * @param lambda λ, one user's throughput
	 * @param sigma σ, contention
	 * @param kappa κ, coherency
	 * @param capacityRps the curve's peak
	 * @param capacityLowRps the peak's lower bound
	 * @param capacityHighRps the peak's upper bound
	 * @param peakUsers the users at the peak
	 * @param measuredUpToUsers the most users a step measured
	 * @param capacityWithinReach whether the peak lies within twice the users measured
	 */
	public record Fit(double lambda, double sigma, double kappa, OptionalDouble capacityRps,
			OptionalDouble capacityLowRps, OptionalDouble capacityHighRps, OptionalDouble peakUsers,
			int measuredUpToUsers, boolean capacityWithinReach) {

		Map<String, Object> json() {
			Map<String, Object> usl = new LinkedHashMap<>();
			usl.put("law", "usl");
			usl.put("lambda", this.lambda);
			usl.put("sigma", this.sigma);
			usl.put("kappa", this.kappa);
			usl.put("capacityRps", orNull(this.capacityRps));
			usl.put("capacityLowRps", orNull(this.capacityLowRps));
			usl.put("capacityHighRps", orNull(this.capacityHighRps));
			usl.put("peakUsers", orNull(this.peakUsers));
			usl.put("measuredUpToUsers", this.measuredUpToUsers);
			usl.put("capacityWithinReach", this.capacityWithinReach);
			return usl;
		}

		static Fit read(Object json) {
			return new Fit(Json.number(json, "lambda"), Json.number(json, "sigma"), Json.number(json, "kappa"),
					optional(json, "capacityRps"), optional(json, "capacityLowRps"), optional(json, "capacityHighRps"),
					optional(json, "peakUsers"), (int) Json.number(json, "measuredUpToUsers"),
					Boolean.TRUE.equals(Json.path(json, "capacityWithinReach")));
		}

	}

	/**
	 * A verdict put to the test by its knob.
	 *
	 * @param knob the knob, as its name reads
	 * @param confirmed whether the ceiling moved the knob's way
	 * @param ceilingBeforeRps the sweep's ceiling
	 * @param ceilingAfterRps the ceiling with the knob turned
	 * @param predictedRps what the model predicted
	 * @param predictedBy how
	 * @param line the confirmation as the console printed it
	 * @param tookSeconds the restart and the two steps
	 */
	public record Confirmation(String knob, boolean confirmed, double ceilingBeforeRps, double ceilingAfterRps,
			double predictedRps, String predictedBy, String line, double tookSeconds) {

		Map<String, Object> json() {
			Map<String, Object> tested = new LinkedHashMap<>();
			tested.put("knob", this.knob);
			tested.put("confirmed", this.confirmed);
			tested.put("ceilingBeforeRps", this.ceilingBeforeRps);
			tested.put("ceilingAfterRps", this.ceilingAfterRps);
			tested.put("predictedRps", this.predictedRps);
			tested.put("predictedBy", this.predictedBy);
			tested.put("line", this.line);
			tested.put("took_s", this.tookSeconds);
			return tested;
		}

		static Confirmation read(Object json) {
			return new Confirmation(Json.string(json, "", "knob"), Boolean.TRUE.equals(Json.path(json, "confirmed")),
					Json.number(json, "ceilingBeforeRps"), Json.number(json, "ceilingAfterRps"),
					Json.number(json, "predictedRps"), Json.string(json, "", "predictedBy"),
					Json.string(json, "", "line"), Json.number(json, "took_s"));
		}

	}

	/**
	 * The search for the smallest limit that reaches a throughput.
	 *
	 * @param targetRps the throughput sought
	 * @param found the knob at the limit that reached it
	 * @param starts the service's starts the search spent
	 * @param tries each limit started and measured
	 * @param unreachable why no limit was tried, when none was
	 * @param line the search as the console printed it
	 * @param tookSeconds its starts and steps
	 */
	public record Search(double targetRps, Optional<String> found, int starts, List<Try> tries,
			Optional<String> unreachable, String line, double tookSeconds) {

		public Search {
			tries = List.copyOf(tries);
		}

		Map<String, Object> json() {
			Map<String, Object> search = new LinkedHashMap<>();
			search.put("targetRps", this.targetRps);
			search.put("found", this.found.orElse(null));
			search.put("starts", this.starts);
			search.put("tries", this.tries.stream().map((attempt) -> (Object) attempt.json()).toList());
			search.put("unreachable", this.unreachable.orElse(null));
			search.put("line", this.line);
			search.put("took_s", this.tookSeconds);
			return search;
		}

		static Search read(Object json) {
			List<Try> tries = new ArrayList<>();
			for (Object attempt : Json.array(json, "tries")) {
				tries.add(new Try(Json.string(attempt, "", "knob"), Json.number(attempt, "limit"),
						Json.number(attempt, "predictedRps"), Json.number(attempt, "measuredRps")));
			}
			return new Search(Json.number(json, "targetRps"),
					Optional.ofNullable(Json.path(json, "found")).map(String::valueOf),
					(int) Json.number(json, "starts"), tries,
					Optional.ofNullable(Json.path(json, "unreachable")).map(String::valueOf),
					Json.string(json, "", "line"), Json.number(json, "took_s"));
		}

		/**
		 * One limit started and measured.
		 *
		 * @param knob the knob at that limit
		 * @param limit the limit
		 * @param predictedRps what the model predicted for it
		 * @param measuredRps the highest throughput of its two steps
		 */
		public record Try(String knob, double limit, double predictedRps, double measuredRps) {

			Map<String, Object> json() {
				Map<String, Object> attempt = new LinkedHashMap<>();
				attempt.put("knob", this.knob);
				attempt.put("limit", this.limit);
				attempt.put("predictedRps", this.predictedRps);
				attempt.put("measuredRps", this.measuredRps);
				return attempt;
			}

		}

	}

	private static Object orNull(OptionalDouble value) {
		return value.isPresent() ? value.getAsDouble() : null;
	}

	private static OptionalDouble optional(Object json, String... keys) {
		double number = Json.number(json, keys);
		return Double.isNaN(number) ? OptionalDouble.empty() : OptionalDouble.of(number);
	}

	private static double number(Object value) {
		return (value instanceof Number number) ? number.doubleValue() : Double.NaN;
	}

}
