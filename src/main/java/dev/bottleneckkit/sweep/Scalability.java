package dev.bottleneckkit.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The Universal Scalability Law fitted to a sweep's steps: throughput at N users is X(N)
 * = λN / (1 + σ(N − 1) + κN(N − 1)), λ what one user gets, σ the share of the work that
 * queues for something serial (a pool, a lock: contention), κ the cost of keeping copies
 * in step (coherency), which makes throughput fall past a peak. A curve, not only a knee:
 * the capacity is the peak of the curve (or its asymptote λ / σ when κ is 0), at √((1 −
 * σ) / κ) users, and its spread comes from fitting again without each step in turn.
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
public record Scalability(double lambda, double sigma, double kappa, OptionalDouble peakUsers, OptionalDouble capacity,
		OptionalDouble capacityLow, OptionalDouble capacityHigh, int measuredUpToUsers) {

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
	public static Optional<Scalability> fit(List<Step> steps) {
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
				// Relative errors: f = N / D, X̂ = λ f; minimise Σ (λ f / X − 1)², so λ =
				// Σ (f/X) / Σ (f/X)².
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
	 * The curve's peak, or its asymptote λ / σ when κ is 0; empty when it rises forever.
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
	 * "USL: λ 2.0 rps a user, σ 0.082, κ 0.0042 — capacity 10.1 rps (9.8–10.4 leaving out
	 * each step) at 14 users"
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
		String spread = (this.capacityLow.isPresent()) ? String.format(Locale.ROOT,
				" (%.1f–%.1f leaving out each step)", this.capacityLow.getAsDouble(), this.capacityHigh.getAsDouble())
				: "";
		String at = this.peakUsers.isPresent()
				? String.format(Locale.ROOT, " at %.0f users", this.peakUsers.getAsDouble()) : " as users grow";
		return head + String.format(Locale.ROOT, " — capacity %.1f rps", this.capacity.getAsDouble()) + spread + at;
	}

}
