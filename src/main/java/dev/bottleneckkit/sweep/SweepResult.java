package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.sweep.Sweep.Knob;

/**
 * What a {@link Sweep} found: its steps at rising concurrency, the knee where doubling
 * the users stopped raising throughput, the ceiling the service stopped at, and the
 * {@link Verdict} that names the resource.
 */
public final class SweepResult {

	/** A step whose throughput reaches this share of the ceiling is at the knee. */
	static final double KNEE_SHARE = 0.9;

	private final String name;

	private final URI target;

	private final List<Step> steps;

	private final boolean saturated;

	private final Verdict verdict;

	private final Optional<WarmUp> warmUp;

	private final List<String> blind;

	private final Duration took;

	private Optional<Confirmation> confirmation = Optional.empty();

	private Optional<Search> search = Optional.empty();

	/** A result whose {@code verdict} is null only while the verdict is being reached. */
	SweepResult(String name, URI target, List<Step> steps, boolean saturated, Verdict verdict, Optional<WarmUp> warmUp,
			List<String> blind, Duration took) {
		this.name = name;
		this.target = target;
		this.steps = List.copyOf(steps);
		this.saturated = saturated;
		this.verdict = verdict;
		this.warmUp = warmUp;
		this.blind = List.copyOf(blind);
		this.took = took;
	}

	/** The same result with the verdict put to the test. */
	SweepResult confirmedBy(Confirmation confirmation) {
		SweepResult confirmed = new SweepResult(this.name, this.target, this.steps, this.saturated, this.verdict,
				this.warmUp, this.blind, this.took.plus(confirmation.took()));
		confirmed.confirmation = Optional.of(confirmation);
		confirmed.search = this.search;
		return confirmed;
	}

	/** The same result with the search for a limit that reaches a throughput. */
	SweepResult searchedBy(Search search) {
		SweepResult searched = new SweepResult(this.name, this.target, this.steps, this.saturated, this.verdict,
				this.warmUp, this.blind, this.took.plus(search.took()));
		searched.confirmation = this.confirmation;
		searched.search = Optional.of(search);
		return searched;
	}

	/**
	 * The smallest limit of the capped resource found to reach a throughput, when the
	 * sweep was asked to search for one ({@link Sweep#reaching(double)}) and its verdict
	 * named a resource.
	 */
	public Optional<Search> search() {
		return this.search;
	}

	/**
	 * The verdict put to the test, when the sweep was asked to
	 * ({@link Sweep#confirming()}) and the verdict named a resource with a knob.
	 */
	public Optional<Confirmation> confirmation() {
		return this.confirmation;
	}

	/**
	 * Each resource's own ceiling as the steps read it, lowest first, the one that caps
	 * included: what raising the cap would leave.
	 */
	public List<Verdict.Bound> bounds() {
		return Attribution.bounds(this);
	}

	/**
	 * What caps next: the lowest resource's ceiling other than the verdict's, when the
	 * verdict names one and the steps read another. Once the verdict was put to the test,
	 * as the confirmation's best step read it, the knob turned.
	 */
	public Optional<Verdict.Bound> nextCap() {
		Optional<Step> turned = this.confirmation.flatMap(Confirmation::best);
		if (turned.isPresent()) {
			return Attribution.nextCap(this, turned.get());
		}
		Optional<Resource> cap = this.verdict.cap();
		// A ceiling below the one measured is no resource's: its model read the route
		// wrong.
		return bounds().stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= ceiling())
			.findFirst();
	}

	/**
	 * The search for the smallest limit of the capped resource that reaches a throughput:
	 * the model (the ceiling a unit of the limit) picks a limit, a start and two steps
	 * measure it, a limit that falls short is raised by what it missed.
	 *
	 * @param target the throughput sought, requests per second
	 * @param perUnit the sweep's ceiling over its limit: what the model gives a unit
	 * @param step the smallest change of the limit
	 * @param tries each limit started and measured, in order
	 * @param unreachable why no limit was tried, when none was
	 * @param took how long the search took, its starts included
	 */
	public record Search(double target, double perUnit, double step, List<Try> tries, Optional<String> unreachable,
			Duration took) {

		public Search {
			tries = List.copyOf(tries);
		}

		static Search unreachable(double target, String why) {
			return new Search(target, 0, 1, List.of(), Optional.of(why), Duration.ZERO);
		}

		/** The first limit that reached the target. */
		public Optional<Try> found() {
			return this.tries.stream().filter((attempt) -> attempt.reached(this.target)).findFirst();
		}

		/** The service's starts the search spent: one a limit tried. */
		public int starts() {
			return this.tries.size();
		}

		/**
		 * "reaches 24.0 rps with Hikari 7: 27.1 rps measured (predicted 27.7, 3.95 rps a
		 * unit); a limit of 6 is predicted 23.7 rps; 1 start", "did not reach …", or "no
		 * limit searched for …: the next cap … lies below it".
		 */
		public String line() {
			if (this.unreachable.isPresent()) {
				return String.format(Locale.ROOT, "no limit searched for %.1f rps: %s", this.target,
						this.unreachable.get());
			}
			String starts = this.tries.size() + ((this.tries.size() == 1) ? " start" : " starts");
			Optional<Try> found = found();
			if (found.isEmpty()) {
				return String.format(Locale.ROOT, "did not reach %.1f rps in %s: %s — the cap moved elsewhere",
						this.target, starts,
						this.tries.stream()
							.map((attempt) -> String.format(Locale.ROOT, "%s %.1f rps", attempt.knob(),
									attempt.measured()))
							.collect(java.util.stream.Collectors.joining(", ")));
			}
			Try reached = found.get();
			double less = reached.limit() - this.step;
			Optional<Try> lessTried = this.tries.stream()
				.filter((attempt) -> Math.abs(attempt.limit() - less) < this.step / 2)
				.findFirst();
			String smaller = (less < this.step / 2) ? "no smaller limit exists" : lessTried.map(
					(attempt) -> String.format(Locale.ROOT, "%s measured %.1f rps", attempt.knob(), attempt.measured()))
				.orElse(String.format(Locale.ROOT, "a limit of %s is predicted %.1f rps", Verdict.count(less),
						less * this.perUnit));
			return String.format(Locale.ROOT,
					"reaches %.1f rps with %s: %.1f rps measured (predicted %.1f, %.2f rps a unit of the limit); %s;"
							+ " %s",
					this.target, reached.knob(), reached.measured(), reached.predicted(), this.perUnit, smaller,
					starts);
		}

		@Override
		public String toString() {
			return line();
		}

		/**
		 * One limit started and measured.
		 *
		 * @param knob the knob at that limit, as its name reads
		 * @param limit the limit
		 * @param predicted the throughput the model predicted for it
		 * @param measured the highest throughput of its two steps
		 */
		public record Try(String knob, double limit, double predicted, double measured) {

			/** Whether this limit reached {@code target} rps. */
			public boolean reached(double target) {
				return this.measured >= target;
			}

		}

	}

	/**
	 * The Universal Scalability Law fitted to the steps: the curve, its capacity and the
	 * users at its peak; empty with fewer than three steps.
	 */
	public Optional<Scalability> scalability() {
		return Scalability.fit(this.steps);
	}

	/** How the service was warmed up before the first step, when it was. */
	public Optional<WarmUp> warmUp() {
		return this.warmUp;
	}

	/**
	 * What the probes could not see, each in one line naming what to change; empty when
	 * every probe saw.
	 */
	public List<String> blind() {
		return this.blind;
	}

	/** What was swept, for reports. */
	public String name() {
		return this.name;
	}

	/** The route the load was sent to. */
	public URI target() {
		return this.target;
	}

	/** The steps, one user first, doubling. */
	public List<Step> steps() {
		return this.steps;
	}

	/** Whether throughput stopped rising within the sweep. */
	public boolean saturated() {
		return this.saturated;
	}

	/** The resource that caps the service, and the numbers that say so. */
	public Verdict verdict() {
		return this.verdict;
	}

	/** How long the sweep ran. */
	public Duration took() {
		return this.took;
	}

	/** W₁: the route's mean latency with one user, as the first step measured it. */
	public Duration oneUserLatency() {
		return this.steps.get(0).meanLatency();
	}

	/**
	 * The highest throughput of any step, requests per second: the ceiling when the sweep
	 * saturated.
	 */
	public double ceiling() {
		return this.steps.stream().mapToDouble(Step::throughput).max().orElse(0);
	}

	/**
	 * The first step at {@value #KNEE_SHARE} of the ceiling or more, when the sweep
	 * saturated: the knee.
	 */
	public Optional<Step> knee() {
		if (!this.saturated) {
			return Optional.empty();
		}
		double ceiling = ceiling();
		return this.steps.stream().filter((step) -> step.throughput() >= KNEE_SHARE * ceiling).findFirst();
	}

	/**
	 * Little's law at the knee: how many requests the service behaves as if it served at
	 * once, ceiling × W₁ (a pool of 5 behind a 500 ms route: 10 rps × 0.5 s = 5).
	 */
	public double concurrencyAtCeiling() {
		return ceiling() * this.oneUserLatency().toNanos() / 1e9;
	}

	/** The steps as a table for logs and failure messages. */
	public String table() {
		StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "  %6s %10s %9s %9s %8s %8s %8s%n", "users",
				"rps", "p50 ms", "mean ms", "errors", "service", "machine"));
		Optional<Step> knee = knee();
		for (Step step : this.steps) {
			table.append(String.format(Locale.ROOT, "  %6d %10.1f %9d %9d %8d %8s %8s%s%n", step.users(),
					step.throughput(), step.result().median().toMillis(), step.meanLatency().toMillis(),
					step.result().errorCount(),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.service())).orElse("-"),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.machineUsed())).orElse("-"),
					(knee.isPresent() && knee.get() == step) ? "  <- knee" : ""));
		}
		return table.toString();
	}

	@Override
	public String toString() {
		return this.name + ": " + this.verdict.line() + System.lineSeparator()
				+ this.confirmation.map((c) -> "  " + c.line() + System.lineSeparator()).orElse("")
				+ nextCap().map((next) -> "  next: " + next + System.lineSeparator()).orElse("")
				+ scalability().map((fit) -> "  " + fit + System.lineSeparator()).orElse("")
				+ this.warmUp.map((w) -> "  " + w + System.lineSeparator()).orElse("") + table();
	}

	/**
	 * How a sweep warmed the service up before its first step, so that W₁, on which every
	 * model rests, is the service's latency and not its JIT's. Rounds of {@value #USERS}
	 * users, each until every user went through a cycle (at least 1 s), until the mean
	 * latency stops falling: a round no more than {@value #SETTLED_PERCENT} % below the
	 * round before (a cold JVM's rounds fall 1235 → 400 → 158 → 150 ms; noise that rises
	 * is no warming up), or the warm-up's time runs out.
	 *
	 * @param users the users of each round
	 * @param took how long the warm-up lasted
	 * @param means each round's mean latency, in order
	 * @param settled whether the latency settled before the time ran out
	 */
	public record WarmUp(int users, Duration took, List<Duration> means, boolean settled) {

		/** Users of a warm-up round. */
		static final int USERS = 2;

		/**
		 * A round whose mean fell less than this (in percent) below the last has settled.
		 */
		static final int SETTLED_PERCENT = 15;

		public WarmUp {
			means = List.copyOf(means);
		}

		/** "warmed up in 4.1 s (2 users): mean 275 → 41 → 38 ms, settled" */
		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT, "warmed up in %.1f s (%d users): mean %s ms, %s",
					this.took.toMillis() / 1000.0, this.users,
					this.means.stream()
						.map((mean) -> Long.toString(mean.toMillis()))
						.collect(Collectors.joining(" → ")),
					this.settled ? "settled" : this.means.get(this.means.size() - 1).isZero()
							? "the route answered no request" : "not settled when the warm-up's time ran out");
		}

		/** When a warm-up ends: its longest time. */
		record Rule(Duration atMost) {

			static final Rule DEFAULT = new Rule(Duration.ofSeconds(20));

			Rule atMost(Duration duration) {
				return new Rule(duration);
			}

			/** Warms up with {@code mix}; empty when the rule allows no time. */
			Optional<WarmUp> run(List<Request> mix, Duration requestTimeout, String name) {
				if (this.atMost.isZero()) {
					return Optional.empty();
				}
				long started = System.nanoTime();
				List<Duration> means = new ArrayList<>();
				boolean settled = false;
				while (System.nanoTime() - started < this.atMost.toNanos()) {
					Duration left = this.atMost.minusNanos(System.nanoTime() - started);
					LoadResult round = ClosedLoopLoad.users(USERS)
						.warmUp(Duration.ZERO)
						.forCycles(1, Sweep.clamp(left, Duration.ofSeconds(1), Duration.ofSeconds(6)))
						.requestTimeout(requestTimeout)
						.named(name + ", warm-up")
						.quiet()
						.run(mix.toArray(Request[]::new));
					if (round.succeeded() == 0) {
						// A route that fails is not warming up: the steps will say what
						// it answers.
						means.add(round.meanLatency());
						break;
					}
					Duration mean = round.meanLatency();
					if (!means.isEmpty()) {
						Duration before = means.get(means.size() - 1);
						settled = mean.toNanos() >= (1 - SETTLED_PERCENT / 100.0) * before.toNanos();
					}
					means.add(mean);
					if (settled) {
						break;
					}
				}
				return Optional.of(new WarmUp(USERS, Duration.ofNanos(System.nanoTime() - started), means, settled));
			}

		}

	}

	/**
	 * A verdict put to the test: the service started again with the named resource's knob
	 * turned ({@link Knob}), and the knee's step and the next doubling measured. The
	 * verdict holds when the ceiling moved the knob's way, up for a raised limit, down
	 * for a lowered one, by at least {@value #ROSE_PERCENT} %, as a doubling of the users
	 * must move it; the prediction it is held against is the turned resource's model or
	 * the next cap's, whichever is lower.
	 *
	 * @param knob what was turned, e.g. {@code Hikari 8}
	 * @param confirmed whether the ceiling moved the knob's way
	 * @param ceilingBefore the sweep's ceiling, requests per second
	 * @param ceilingAfter the highest throughput of the confirmation's steps
	 * @param predicted the throughput the models predict with the knob turned
	 * @param predictedBy what sets the prediction: the raised model, or the next cap
	 * @param steps the confirmation's steps
	 * @param took how long the confirmation took, the service's start included (putting
	 * it back waits for its next use)
	 */
	public record Confirmation(String knob, boolean confirmed, double ceilingBefore, double ceilingAfter,
			double predicted, String predictedBy, List<Step> steps, Duration took) {

		/** A ceiling that rose or fell by less than this share did not move. */
		static final int ROSE_PERCENT = 15;

		public Confirmation {
			steps = List.copyOf(steps);
		}

		/** How far the measured ceiling lies from the prediction: 0.04 for 4 %. */
		public double predictionError() {
			return Math.abs(this.ceilingAfter - this.predicted) / this.predicted;
		}

		/**
		 * "confirmed: with Hikari 8 the ceiling rose 15.7 → 31.0 rps (predicted 31.4 rps,
		 * by 8 connections / 0.255 s)", or "not confirmed: with Tomcat threads 16 the
		 * ceiling stayed at 15.8 rps (predicted 31.6 rps) — the cap is elsewhere".
		 */
		public String line() {
			if (this.confirmed) {
				return String.format(Locale.ROOT,
						"confirmed: with %s the ceiling %s %.1f → %.1f rps (predicted %.1f rps," + " by %s)", this.knob,
						(this.ceilingAfter < this.ceilingBefore) ? "fell" : "rose", this.ceilingBefore,
						this.ceilingAfter, this.predicted, this.predictedBy);
			}
			return String.format(Locale.ROOT,
					"not confirmed: with %s the ceiling stayed at %.1f rps (was %.1f, predicted"
							+ " %.1f rps by %s) — the cap is elsewhere",
					this.knob, this.ceilingAfter, this.ceilingBefore, this.predicted, this.predictedBy);
		}

		/** The step of the confirmation with the highest throughput. */
		public Optional<Step> best() {
			return this.steps.stream().max(java.util.Comparator.comparingDouble(Step::throughput));
		}

		@Override
		public String toString() {
			return line();
		}

	}

	/**
	 * The Universal Scalability Law fitted to a sweep's steps: throughput at N users is
	 * X(N) = λN / (1 + σ(N − 1) + κN(N − 1)), λ what one user gets, σ the share of the
	 * work that queues for something serial (a pool, a lock: contention), κ the cost of
	 * keeping copies in step (coherency), which makes throughput fall past a peak. A
	 * curve, not only a knee: the capacity is the peak of the curve (or its asymptote λ /
	 * σ when κ is 0), at √((1 − σ) / κ) users, and its spread comes from fitting again
	 * without each step in turn.
	 *
	 * @param lambda throughput of one user, requests per second
	 * @param sigma contention, 0 to 1
	 * @param kappa coherency, 0 or more
	 * @param peakUsers the users at which the curve peaks, when κ > 0
	 * @param capacity the most throughput the curve allows, when it has a peak or an
	 * asymptote
	 * @param capacityLow the lowest capacity of the fits without one step
	 * @param capacityHigh the highest capacity of the fits without one step
	 */
	public record Scalability(double lambda, double sigma, double kappa, OptionalDouble peakUsers,
			OptionalDouble capacity, OptionalDouble capacityLow, OptionalDouble capacityHigh, int measuredUpToUsers) {

		/** Steps a fit needs: three parameters. */
		static final int MIN_STEPS = 3;

		/**
		 * How far past the most users measured a peak may lie and still be read as the
		 * curve's: one more doubling of the sweep. Beyond it the peak is the fit's
		 * extrapolation, not something the steps showed.
		 */
		static final double REACH = 2;

		/**
		 * Whether the capacity lies within the sweep's reach: the curve peaks at most one
		 * doubling past the most users measured, or levels off (κ 0) below them.
		 */
		public boolean capacityWithinReach() {
			if (this.capacity.isEmpty()) {
				return false;
			}
			return this.peakUsers.isEmpty() || this.peakUsers.getAsDouble() <= REACH * this.measuredUpToUsers;
		}

		/** The curve at {@code users}: requests per second. */
		public double throughputAt(double users) {
			return this.lambda * users / (1 + this.sigma * (users - 1) + this.kappa * users * (users - 1));
		}

		/**
		 * The fit to {@code steps}' users and throughput; empty with fewer than three.
		 */
		static Optional<Scalability> fit(List<Step> steps) {
			if (steps.size() < MIN_STEPS || steps.stream().anyMatch((step) -> step.throughput() <= 0)) {
				return Optional.empty();
			}
			double[] users = steps.stream().mapToDouble(Step::users).toArray();
			double[] rps = steps.stream().mapToDouble(Step::throughput).toArray();
			double[] best = bestFit(users, rps);
			OptionalDouble capacity = capacity(best);
			OptionalDouble low = OptionalDouble.empty();
			OptionalDouble high = OptionalDouble.empty();
			if (capacity.isPresent() && steps.size() > MIN_STEPS) {
				List<Double> capacities = new ArrayList<>();
				for (int out = 0; out < users.length; out++) {
					double[] u = without(users, out);
					double[] x = without(rps, out);
					capacity(bestFit(u, x)).ifPresent(capacities::add);
				}
				if (capacities.size() == users.length) {
					low = OptionalDouble.of(capacities.stream().mapToDouble(Double::doubleValue).min().orElseThrow());
					high = OptionalDouble.of(capacities.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
				}
			}
			OptionalDouble peak = (best[2] > 0 && best[1] < 1) ? OptionalDouble.of(Math.sqrt((1 - best[1]) / best[2]))
					: OptionalDouble.empty();
			int measured = steps.stream().mapToInt(Step::users).max().orElseThrow();
			return Optional.of(new Scalability(best[0], best[1], best[2], peak, capacity, low, high, measured));
		}

		/**
		 * λ, σ, κ minimising the squared relative error: a grid over σ and κ, λ by least
		 * squares for each (the curve is linear in λ), then a finer grid around the best.
		 */
		private static double[] bestFit(double[] users, double[] rps) {
			double[] best = search(users, rps, 0, 1, 0, 1, true);
			double sigmaStep = 0.01;
			return search(users, rps, Math.max(0, best[1] - sigmaStep), Math.min(1, best[1] + sigmaStep), best[2] / 3,
					Math.max(best[2] * 3, 1e-7), false);
		}

		private static double[] search(double[] users, double[] rps, double sigmaFrom, double sigmaTo, double kappaFrom,
				double kappaTo, boolean logKappa) {
			double[] best = { 0, 0, 0, Double.POSITIVE_INFINITY };
			int sigmas = 100;
			int kappas = 80;
			for (int i = 0; i <= sigmas; i++) {
				double sigma = sigmaFrom + (sigmaTo - sigmaFrom) * i / sigmas;
				for (int j = 0; j <= kappas; j++) {
					double kappa;
					if (logKappa) {
						kappa = (j == 0) ? 0 : Math.pow(10, -7 + 7.0 * (j - 1) / (kappas - 1));
					}
					else {
						kappa = kappaFrom + (kappaTo - kappaFrom) * j / kappas;
					}
					// Relative errors: f = N / D, X̂ = λ f; minimise Σ (λ f / X − 1)²,
					// so λ = Σ (f/X) / Σ (f/X)².
					double sum = 0;
					double squares = 0;
					for (int k = 0; k < users.length; k++) {
						double f = users[k] / (1 + sigma * (users[k] - 1) + kappa * users[k] * (users[k] - 1)) / rps[k];
						sum += f;
						squares += f * f;
					}
					double lambda = sum / squares;
					double error = 0;
					for (int k = 0; k < users.length; k++) {
						double f = users[k] / (1 + sigma * (users[k] - 1) + kappa * users[k] * (users[k] - 1)) / rps[k];
						error += (lambda * f - 1) * (lambda * f - 1);
					}
					if (error < best[3]) {
						best = new double[] { lambda, sigma, kappa, error };
					}
				}
			}
			return best;
		}

		/**
		 * The curve's peak, or its asymptote λ / σ when κ is 0; empty when it rises
		 * forever.
		 */
		private static OptionalDouble capacity(double[] fit) {
			double lambda = fit[0];
			double sigma = fit[1];
			double kappa = fit[2];
			if (kappa > 0 && sigma < 1) {
				double peak = Math.sqrt((1 - sigma) / kappa);
				return OptionalDouble.of(lambda * peak / (1 + sigma * (peak - 1) + kappa * peak * (peak - 1)));
			}
			return (sigma > 0) ? OptionalDouble.of(lambda / sigma) : OptionalDouble.empty();
		}

		private static double[] without(double[] values, int index) {
			double[] kept = new double[values.length - 1];
			for (int i = 0, j = 0; i < values.length; i++) {
				if (i != index) {
					kept[j++] = values[i];
				}
			}
			return kept;
		}

		/**
		 * "USL: λ 2.0 rps a user, σ 0.082, κ 0.0042 — capacity 10.1 rps (9.8–10.4 leaving
		 * out each step) at 14 users"
		 */
		@Override
		public String toString() {
			String head = String.format(Locale.ROOT, "USL: λ %.2f rps a user, σ %.3f, κ %.4f", this.lambda, this.sigma,
					this.kappa);
			if (this.capacity.isEmpty()) {
				return head + " — no capacity within reach: throughput rises without a bound";
			}
			if (!capacityWithinReach()) {
				return head + String.format(Locale.ROOT,
						" — no capacity within the sweep's reach: the curve would peak at %.0f users (%.1f rps), the steps went up to %d",
						this.peakUsers.getAsDouble(), this.capacity.getAsDouble(), this.measuredUpToUsers);
			}
			String spread = (this.capacityLow.isPresent())
					? String.format(Locale.ROOT, " (%.1f–%.1f leaving out each step)", this.capacityLow.getAsDouble(),
							this.capacityHigh.getAsDouble())
					: "";
			String at = this.peakUsers.isPresent()
					? String.format(Locale.ROOT, " at %.0f users", this.peakUsers.getAsDouble()) : " as users grow";
			return head + String.format(Locale.ROOT, " — capacity %.1f rps", this.capacity.getAsDouble()) + spread + at;
		}

	}

}
