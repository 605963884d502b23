package dev.bottleneckkit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A sweep as results.json holds it ({@code sweep} of a run): its steps, its ceiling, its
 * verdict, and what put the verdict to the test; read and written by the same code.
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
 * @param comparison the sweep's service against its base image, measured side by side
 */
public record SweepRecord(String name, List<Step> steps, boolean saturated, OptionalDouble ceilingRps,
		OptionalInt kneeUsers, double oneUserLatencyMs, Verdict verdict, Optional<NextCap> nextCap, Optional<Fit> fit,
		Optional<Confirmation> confirmation, Optional<Search> search, Optional<Comparison> comparison) {

	public SweepRecord {
		steps = List.copyOf(steps);
	}

	/** The block as results.json holds it. */
	public Map<String, Object> json() {
		return Json.object("name", this.name, "steps", this.steps.stream().map((step) -> (Object) step.json()).toList(),
				"saturated", this.saturated, "ceilingRps", Json.orNull(this.ceilingRps), "kneeUsers",
				this.kneeUsers.isPresent() ? this.kneeUsers.getAsInt() : null, "oneUserLatency_ms",
				this.oneUserLatencyMs, "verdict", this.verdict.json(), "nextCap",
				this.nextCap.map(NextCap::json).orElse(null), "fit", this.fit.map(Fit::json).orElse(null),
				"confirmation", this.confirmation.map(Confirmation::json).orElse(null), "search",
				this.search.map(Search::json).orElse(null), "comparison",
				this.comparison.map(Comparison::json).orElse(null));
	}

	/** The block {@code json} holds, as {@link #json()} wrote it. */
	public static SweepRecord read(Object json) {
		List<Step> steps = new ArrayList<>();
		for (Object step : Json.array(json, "steps")) {
			steps.add(Step.read(step));
		}
		OptionalDouble knee = Json.optionalNumber(json, "kneeUsers");
		return new SweepRecord(Json.string(json, "", "name"), steps, Boolean.TRUE.equals(Json.path(json, "saturated")),
				Json.optionalNumber(json, "ceilingRps"),
				knee.isPresent() ? OptionalInt.of((int) knee.getAsDouble()) : OptionalInt.empty(),
				Json.number(json, "oneUserLatency_ms"), Verdict.read(Json.path(json, "verdict")),
				Optional.ofNullable(Json.path(json, "nextCap")).map(NextCap::read),
				Optional.ofNullable(Json.path(json, "fit")).map(Fit::read),
				Optional.ofNullable(Json.path(json, "confirmation")).map(Confirmation::read),
				Optional.ofNullable(Json.path(json, "search")).map(Search::read),
				Optional.ofNullable(Json.path(json, "comparison")).map(Comparison::read));
	}

	/**
	 * The sweep's service (B, the head) against its base image (A), measured side by
	 * side: every figure B / A with its 95 % interval.
	 *
	 * @param baseImage A
	 * @param headImage B
	 * @param sameImage whether both are one image: an A/A comparison
	 * @param kneeUsers the users of the knee's blocks
	 * @param ceilingUsers the users of the ceiling's blocks
	 * @param baseCap what caps A
	 * @param headCap what caps B
	 * @param capMoved whether both named a resource, and not the same
	 * @param blocks the interleaved blocks measured
	 * @param seed the seed of the blocks' order, which {@code -Dbottleneck.ab.seed}
	 * replays
	 * @param figures each figure
	 * @param regressed whether B regressed at the default bound (5 %)
	 * @param lines the comparison as the console printed it
	 * @param tookSeconds the base's start, the pair's steps and the blocks
	 */
	public record Comparison(String baseImage, String headImage, boolean sameImage, int kneeUsers, int ceilingUsers,
			String baseCap, String headCap, boolean capMoved, int blocks, long seed, List<Figure> figures,
			boolean regressed, List<String> lines, double tookSeconds) {

		public Comparison {
			figures = List.copyOf(figures);
			lines = List.copyOf(lines);
		}

		Map<String, Object> json() {
			return Json.object("baseImage", this.baseImage, "headImage", this.headImage, "sameImage", this.sameImage,
					"kneeUsers", this.kneeUsers, "ceilingUsers", this.ceilingUsers, "baseCap", this.baseCap, "headCap",
					this.headCap, "capMoved", this.capMoved, "blocks", this.blocks, "seed", Long.toString(this.seed),
					"figures", this.figures.stream().map((figure) -> (Object) figure.json()).toList(), "regressed",
					this.regressed, "lines", this.lines, "took_s", this.tookSeconds);
		}

		static Comparison read(Object json) {
			List<Figure> figures = new ArrayList<>();
			for (Object figure : Json.array(json, "figures")) {
				figures.add(Figure.read(figure));
			}
			return new Comparison(Json.string(json, "", "baseImage"), Json.string(json, "", "headImage"),
					Boolean.TRUE.equals(Json.path(json, "sameImage")), (int) Json.number(json, "kneeUsers"),
					(int) Json.number(json, "ceilingUsers"), Json.string(json, "", "baseCap"),
					Json.string(json, "", "headCap"), capMoved(json), (int) Json.number(json, "blocks"), seed(json),
					figures, Boolean.TRUE.equals(Json.path(json, "regressed")),
					Json.array(json, "lines").stream().map(String::valueOf).toList(), Json.number(json, "took_s"));
		}

		/**
		 * Whether the cap moved, as written, or, in a file from before the kit wrote it
		 * as its own, as the two caps' names read.
		 */
		private static boolean capMoved(Object json) {
			Object written = Json.path(json, "capMoved");
			return (written instanceof Boolean moved) ? moved
					: !Json.string(json, "", "baseCap").equals(Json.string(json, "", "headCap"));
		}

		/** The seed, written as a string: a long does not fit a JSON number's double. */
		private static long seed(Object json) {
			try {
				return Long.parseLong(Json.string(json, "0", "seed"));
			}
			catch (NumberFormatException ex) {
				return 0;
			}
		}

		/**
		 * One figure of A and B.
		 *
		 * @param name what it is
		 * @param unit {@code rps} or {@code ms}
		 * @param base A's mean over the blocks
		 * @param head B's
		 * @param ratio B / A
		 * @param low the 95 % interval's lower end
		 * @param high its upper end
		 * @param noise the spread of one block's ratio, as a share: the run's noise floor
		 * @param higherIsBetter whether more is better (throughput) or worse (latency)
		 * @param change {@code regressed}, {@code improved} or {@code no change}, at 5 %
		 */
		public record Figure(String name, String unit, double base, double head, double ratio, double low, double high,
				double noise, boolean higherIsBetter, String change) {

			Map<String, Object> json() {
				return Json.object("name", this.name, "unit", this.unit, "base", this.base, "head", this.head, "ratio",
						this.ratio, "low", this.low, "high", this.high, "noise", this.noise, "higherIsBetter",
						this.higherIsBetter, "change", this.change);
			}

			static Figure read(Object json) {
				return new Figure(Json.string(json, "", "name"), Json.string(json, "", "unit"),
						Json.number(json, "base"), Json.number(json, "head"), Json.number(json, "ratio"),
						Json.number(json, "low"), Json.number(json, "high"), Json.number(json, "noise"),
						Boolean.TRUE.equals(Json.path(json, "higherIsBetter")), Json.string(json, "", "change"));
			}

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
	 * @param compilerCores the share of a core the service's JIT compilers took
	 */
	public record Step(int users, double rps, OptionalDouble meanLatencyMs, long errors, OptionalDouble serviceCores,
			OptionalDouble machineCores, OptionalDouble compilerCores) {

		Map<String, Object> json() {
			return Json.object("users", this.users, "rps", this.rps, "meanLatency_ms", Json.orNull(this.meanLatencyMs),
					"errors", this.errors, "serviceCores", Json.orNull(this.serviceCores), "machineCores",
					Json.orNull(this.machineCores), "compilerCores", Json.orNull(this.compilerCores));
		}

		static Step read(Object json) {
			return new Step((int) Json.number(json, "users"), Json.number(json, "rps"),
					Json.optionalNumber(json, "meanLatency_ms"), Math.round(Json.number(json, "errors")),
					Json.optionalNumber(json, "serviceCores"), Json.optionalNumber(json, "machineCores"),
					Json.optionalNumber(json, "compilerCores"));
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
			return Json.object("resource", this.resource, "line", this.line, "modelRps", Json.orNull(this.modelRps),
					"ceilingRps", Json.orNull(this.ceilingRps));
		}

		static Verdict read(Object json) {
			return new Verdict(Json.string(json, "NONE", "resource"), Json.string(json, "", "line"),
					Json.optionalNumber(json, "modelRps"), Json.optionalNumber(json, "ceilingRps"));
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
			return Json.object("resource", this.resource, "what", this.what, "modelRps", this.modelRps);
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
			return Json.object("law", "usl", "lambda", this.lambda, "sigma", this.sigma, "kappa", this.kappa,
					"capacityRps", Json.orNull(this.capacityRps), "capacityLowRps", Json.orNull(this.capacityLowRps),
					"capacityHighRps", Json.orNull(this.capacityHighRps), "peakUsers", Json.orNull(this.peakUsers),
					"measuredUpToUsers", this.measuredUpToUsers, "capacityWithinReach", this.capacityWithinReach);
		}

		static Fit read(Object json) {
			return new Fit(Json.number(json, "lambda"), Json.number(json, "sigma"), Json.number(json, "kappa"),
					Json.optionalNumber(json, "capacityRps"), Json.optionalNumber(json, "capacityLowRps"),
					Json.optionalNumber(json, "capacityHighRps"), Json.optionalNumber(json, "peakUsers"),
					(int) Json.number(json, "measuredUpToUsers"),
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
			return Json.object("knob", this.knob, "confirmed", this.confirmed, "ceilingBeforeRps",
					this.ceilingBeforeRps, "ceilingAfterRps", this.ceilingAfterRps, "predictedRps", this.predictedRps,
					"predictedBy", this.predictedBy, "line", this.line, "took_s", this.tookSeconds);
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
			return Json.object("targetRps", this.targetRps, "found", this.found.orElse(null), "starts", this.starts,
					"tries", this.tries.stream().map((attempt) -> (Object) attempt.json()).toList(), "unreachable",
					this.unreachable.orElse(null), "line", this.line, "took_s", this.tookSeconds);
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
				return Json.object("knob", this.knob, "limit", this.limit, "predictedRps", this.predictedRps,
						"measuredRps", this.measuredRps);
			}

		}

	}

}
