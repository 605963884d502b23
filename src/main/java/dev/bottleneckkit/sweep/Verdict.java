package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;

/**
 * What a {@link Sweep} concluded, one of four kinds: {@link Capped} names the resource
 * that caps the service with the model that explains the ceiling; {@link NoCap} says
 * throughput still rose at the last step; {@link Unexplained} says it stopped and no
 * resource's model explains it (with the candidates and what the probes could not see);
 * {@link GeneratorBound} says the load generator, not the service, was the cap. Each kind
 * holds the figures that exist for it, and its {@link #line()} is made from them.
 */
public sealed interface Verdict permits Verdict.Capped, Verdict.NoCap, Verdict.Unexplained, Verdict.GeneratorBound {

	/**
	 * The reading that holds the failed answers of the steps at and past the knee, in
	 * words: every verdict's line ends with it where some failed, whatever it names.
	 */
	String FAILED = "failed answers";

	/** The one line a person reads first, made from the figures. */
	String line();

	/** "; failed answers: 2,084 of 2,470 at 16 users (84 %, http-500)", or nothing. */
	private static String failed(Map<String, String> readings) {
		return readings.containsKey(FAILED) ? "; " + FAILED + ": " + readings.get(FAILED) : "";
	}

	/** The probes' readings behind the verdict, for people, in the order they matter. */
	Map<String, String> readings();

	/** The resource the verdict names, when it names one. */
	default Optional<Resource> cap() {
		return (this instanceof Capped capped) ? Optional.of(capped.resource()) : Optional.empty();
	}

	/**
	 * What the verdict says in a few words, for headings: the resource's description,
	 * {@code no cap}, {@code unexplained} or {@code the load generator}.
	 */
	default String headline() {
		return switch (this) {
			case Capped capped -> capped.resource().description();
			case NoCap noCap -> "no cap";
			case Unexplained unexplained -> "unexplained";
			case GeneratorBound generator -> "the load generator";
		};
	}

	/**
	 * The verdict as {@code results.json} names it: the resource's name
	 * ({@code HIKARI_POOL}), or {@code NONE}, {@code UNEXPLAINED},
	 * {@code LOAD_GENERATOR}.
	 */
	default String code() {
		return switch (this) {
			case Capped capped -> capped.resource().name();
			case NoCap noCap -> "NONE";
			case Unexplained unexplained -> "UNEXPLAINED";
			case GeneratorBound generator -> "LOAD_GENERATOR";
		};
	}

	/** The model of a verdict that names a resource. */
	default Optional<Model> ceilingModel() {
		return (this instanceof Capped capped) ? Optional.of(capped.model()) : Optional.empty();
	}

	/**
	 * A resource the sweep found at its limit with work waiting, and Little's law for it.
	 *
	 * @param resource what caps the service
	 * @param ceilingRps the throughput the service stopped at, requests per second
	 * @param fromUsers the users of the knee: the fewest that reached the ceiling
	 * @param saw what the probes read, e.g. {@code Hikari pool 4/4 active, 12 pending}
	 * @param model the law that bounds the resource, e.g. 4 connections / 1.005 s
	 * @param where where the cap sits when a probe can say: the frame that takes the
	 * lock, the frame that pins, the destination of the pool ({@code quotes:8080})
	 * @param readings the readings behind it
	 */
	record Capped(Resource resource, double ceilingRps, int fromUsers, String saw, Model model, Optional<String> where,
			Map<String, String> readings) implements Verdict {

		/**
		 * The reading of a cap the test declared ({@link Resource#own}) that holds what
		 * the kit's own rules say of the same readings without the declaration.
		 */
		public static final String UNDECLARED = "without the declaration";

		/**
		 * The reading of a cap of the machine's cores that other processes shared: what
		 * they took, and that the cores they left may grow with the service's threads.
		 */
		public static final String SHARED_CORES = "shared cores";

		public Capped {
			java.util.Objects.requireNonNull(model, "a verdict that names a resource needs the model that explains it");
			readings = Collections.unmodifiableMap(new LinkedHashMap<>(readings));
		}

		/**
		 * How far the ceiling and the model lie apart, the larger over the smaller less
		 * one: 0.02 for 2 %. The same either way round: a model 25 % above the ceiling is
		 * as far off as one 25 % below it (over the model alone the first would read 20
		 * %).
		 */
		public double modelError() {
			double larger = Math.max(this.ceilingRps, this.model.rps());
			double smaller = Math.min(this.ceilingRps, this.model.rps());
			return (smaller > 0) ? larger / smaller - 1 : Double.POSITIVE_INFINITY;
		}

		/**
		 * "capped at 10.0 rps from 8 users: HttpClient pool 5/5 leased, 35 pending — 5
		 * connections / 0.503 s = 9.9 rps"
		 */
		@Override
		public String line() {
			return String.format(Locale.ROOT, "capped at %.1f rps from %s: %s — %s", this.ceilingRps,
					usersText(this.fromUsers), this.saw, this.model.explain()) + Verdict.failed(this.readings);
		}

		@Override
		public String toString() {
			return line() + String.format(Locale.ROOT, " (measured %.1f rps, model %.1f rps)", this.ceilingRps,
					this.model.rps());
		}

	}

	/**
	 * Throughput rose with every doubling of the users: no cap within the sweep.
	 *
	 * @param upToUsers the users of the last step
	 * @param lastRps the throughput of the last step
	 * @param oneUserLatency W₁, the route's latency with one user
	 * @param readings what the probes read in the last step
	 */
	record NoCap(int upToUsers, double lastRps, Duration oneUserLatency,
			Map<String, String> readings) implements Verdict {

		public NoCap {
			readings = Collections.unmodifiableMap(new LinkedHashMap<>(readings));
		}

		@Override
		public String line() {
			return String.format(Locale.ROOT, "no cap up to %s: %.1f rps, still rising with every doubling (W₁ %d ms)",
					usersText(this.upToUsers), this.lastRps, this.oneUserLatency.toMillis())
					+ Verdict.failed(this.readings);
		}

		@Override
		public String toString() {
			return line();
		}

	}

	/**
	 * Throughput stopped rising and no resource's model explains the ceiling: nothing is
	 * named.
	 *
	 * @param ceilingRps the throughput the service stopped at
	 * @param fromUsers the users of the knee
	 * @param candidates resources seen at their limit whose model lies too far from the
	 * ceiling, with that model
	 * @param blind what a probe could not see, each in one line naming what to change
	 * @param readings what the probes read in the last step
	 */
	record Unexplained(double ceilingRps, int fromUsers, List<Capped> candidates, List<String> blind,
			Map<String, String> readings) implements Verdict {

		/**
		 * The reading that says the steps at the cap measured a JVM still warming up: its
		 * JIT compilers busy.
		 */
		public static final String WARMING = "warming";

		/**
		 * The reading that says what the dumps showed request threads waiting for before
		 * any client: a bulkhead, a rate limiter, a busy executor.
		 */
		public static final String UPSTREAM = "waiting before the clients";

		public Unexplained {
			candidates = List.copyOf(candidates);
			blind = List.copyOf(blind);
			readings = Collections.unmodifiableMap(new LinkedHashMap<>(readings));
		}

		@Override
		public String line() {
			String head = String.format(Locale.ROOT, "capped at %.1f rps from %s", this.ceilingRps,
					usersText(this.fromUsers));
			String body;
			if (this.readings.containsKey(UPSTREAM)) {
				// What the dumps saw full before the clients, in words a person acts on;
				// no resource's name is put on it.
				body = ", and no rule names what held the requests back: " + this.readings.get(UPSTREAM)
						+ "; the connections and threads after it follow that cap ("
						+ (this.candidates.isEmpty() ? ""
								: this.candidates.stream().map(this::candidateLine).collect(Collectors.joining("; "))
										+ "; ")
						+ describe(this.readings) + ")";
			}
			else if (!this.candidates.isEmpty()) {
				body = String.format(Locale.ROOT, ", and no resource's model explains it within %d %%: ",
						Math.round(AnalysisPolicy.MODEL_AGREEMENT * 100))
						+ this.candidates.stream().map(this::candidateLine).collect(Collectors.joining("; "));
			}
			else if (this.readings.containsKey(WARMING)) {
				body = ", and the service's JVM was still warming up (" + this.readings.get(WARMING)
						+ "): no resource is named for a ceiling its JIT set; a longer warm-up reads the service's own ("
						+ describe(this.readings) + ")";
			}
			else {
				body = ", and no probe explains it: no pool, thread pool, carrier, lock or CPU was at its limit in the"
						+ " last step (" + describe(this.readings) + ")";
			}
			return head + body + Verdict.failed(this.readings)
					+ (this.blind.isEmpty() ? "" : "; blind: " + String.join("; ", this.blind));
		}

		/**
		 * A resource seen at its limit, with the model that did not explain the ceiling:
		 * "… — 3 renderers / 0.150 s = 20.0 rps (1.34× the ceiling)".
		 */
		private String candidateLine(Capped candidate) {
			return candidate.saw() + " — " + candidate.model().explain()
					+ String.format(Locale.ROOT, " (%.2f× the ceiling)", candidate.model().rps() / this.ceilingRps);
		}

		@Override
		public String toString() {
			return line();
		}

	}

	/**
	 * The load generator could not send faster: the service's own cap is not known.
	 *
	 * @param rps the throughput of the step where it saturated
	 * @param users that step's users
	 * @param busy the share of the step its busiest thread spent on the CPU, 0 to 1
	 */
	record GeneratorBound(double rps, int users, double busy) implements Verdict {

		@Override
		public String line() {
			return String.format(Locale.ROOT,
					"the load generator was the cap at %.1f rps with %s: its busiest thread was on the CPU %d %% of the"
							+ " step, so the service's own cap is not known",
					this.rps, usersText(this.users), Math.round(this.busy * 100));
		}

		@Override
		public Map<String, String> readings() {
			return Map.of("generator busy", Math.round(this.busy * 100) + " %");
		}

		@Override
		public String toString() {
			return line();
		}

	}

	/**
	 * One resource's own ceiling, whether or not it was at its limit: its model from the
	 * sweep's steps, to rank what caps next.
	 *
	 * @param resource the resource
	 * @param what what was read of it, e.g. {@code Tomcat threads, 200 configured}
	 * @param model its model: limit / hold
	 */
	record Bound(Resource resource, String what, Model model) {

		/** "Tomcat request threads at 392.2 rps (200 threads / 0.510 s)" */
		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%s at %.1f rps (%s)", this.what, this.model.rps(),
					this.model.explain().substring(0, this.model.explain().lastIndexOf(" = ")));
		}

	}

	/**
	 * Little's law (or the utilization law) for one resource: at most {@code limit} units
	 * serve at once, each request holds one for {@code hold}, so the resource completes
	 * at most limit / hold requests a second.
	 *
	 * @param limit how many units serve at once: connections, threads, carriers, cores,
	 * one for a lock
	 * @param unit what a unit is, plural: {@code connections}, {@code cores}
	 * @param hold how long one request holds one unit
	 * @param holdIs where {@code hold} comes from: {@code W₁}, {@code a use},
	 * {@code CPU per request}, {@code pinned per request}
	 */
	record Model(double limit, String unit, Duration hold, String holdIs) {

		public Model {
			if (!(limit > 0) || hold.isNegative() || hold.isZero()) {
				throw new IllegalArgumentException(
						"a model needs a limit > 0 and a hold > 0, was " + limit + " " + unit + " / " + hold);
			}
		}

		/** limit / hold, requests per second. */
		public double rps() {
			return this.limit / (this.hold.toNanos() / 1e9);
		}

		/** "5 connections / 0.503 s = 9.9 rps" */
		public String explain() {
			String unit = (this.limit == 1 && this.unit.endsWith("s")) ? this.unit.substring(0, this.unit.length() - 1)
					: this.unit;
			return String.format(Locale.ROOT, "%s %s / %.3f s = %.1f rps", Knobs.count(this.limit), unit,
					this.hold.toNanos() / 1e9, rps());
		}

	}

	private static String usersText(int users) {
		return (users == 1) ? "1 user" : users + " users";
	}

	private static String describe(Map<String, String> seen) {
		return seen.isEmpty() ? "no probe attached"
				: seen.entrySet()
					.stream()
					.filter((entry) -> !entry.getKey().equals(Unexplained.UPSTREAM) && !entry.getKey().equals(FAILED))
					.map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(Collectors.joining(", "));
	}

}
