package dev.bottleneckkit.sweep.internal.analysis;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;

/**
 * What a request demands of a pool whose own timer the service publishes (Hikari's
 * {@code hikaricp.connections.usage}): not one hold, but the uses a request makes times
 * the hold of a use. A route that counts its rows and then reads a page in two
 * transactions, a lazy load, an N+1: each takes the pool again. The pool serves at most
 * {@code limit / (uses × hold)} requests a second.
 *
 * <p>
 * Both figures come from the timer over one step: its total seconds over its count give
 * the hold of a use, its count a second over the requests the step served a second give
 * the uses of a request. A count within {@value AnalysisPolicy#WHOLE} of a whole number
 * is that number (a route's uses are whole; a health check or a pool's own housekeeping
 * adds a few); else it is kept to a tenth, as for an N+1 whose N varies.
 */
public final class PoolUses {

	private PoolUses() {
	}

	/**
	 * Hikari's pool at {@code limit} connections over {@code step}: the uses a request
	 * makes and the model whose hold is the connection-seconds a request spends in it.
	 * Empty when the step did not read the usage timer.
	 */
	public static Optional<Demand> hikari(Step step, double limit) {
		GaugeTimeline meters = step.service();
		return meters.meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES)
			.map((use) -> Demand.of(limit, use, usesOfARequest(meters.rate(Gauge.HIKARI_USES), step.throughput())));
	}

	/**
	 * What a request demands of a pool: {@code uses} of it, and the model they give.
	 *
	 * @param uses how many times a request takes the pool
	 * @param model the pool's limit over the hold of a request, uses × the hold of a use
	 */
	public record Demand(double uses, Verdict.Model model) {

		/** A pool at {@code limit} whose requests take it {@code uses} times. */
		static Demand of(double limit, Duration use, double uses) {
			if (uses == 1) {
				return new Demand(1, new Verdict.Model(limit, "connections", use, "a use"));
			}
			return new Demand(uses,
					new Verdict.Model(limit, "connections", Duration.ofNanos(Math.round(use.toNanos() * uses)),
							String.format(Locale.ROOT, "%s uses × %.3f s", Knobs.count(uses), use.toNanos() / 1e9)));
		}

		/**
		 * ", 2 uses a request" where a request takes the pool more than once, else "".
		 */
		public String aRequest() {
			return (this.uses == 1) ? "" : ", " + Knobs.count(this.uses) + " uses a request";
		}

	}

	/**
	 * A request's uses of the pool: its uses a second over the requests served a second,
	 * whole when near a whole number (see the class), else to a tenth, at least a tenth;
	 * one when either rate is not read.
	 */
	static double usesOfARequest(OptionalDouble usesASecond, double requestsASecond) {
		if (usesASecond.isEmpty() || !(requestsASecond > 0) || !(usesASecond.getAsDouble() > 0)) {
			return 1;
		}
		double uses = usesASecond.getAsDouble() / requestsASecond;
		double whole = Math.rint(uses);
		if (whole >= 1 && Math.abs(uses - whole) <= AnalysisPolicy.WHOLE) {
			return whole;
		}
		return Math.max(0.1, Math.rint(uses * 10) / 10);
	}

}
