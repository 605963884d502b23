package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A verdict put to the test: the service started again with the named resource's knob
 * turned ({@link Knob}), and the knee's step and the next doubling measured. The verdict
 * holds when the ceiling moved the knob's way, up for a raised limit, down for a lowered
 * one, by at least 15 %, as a doubling of the users must move it; the prediction it is
 * held against is the turned resource's model or the next cap's, whichever is lower. A
 * CPU-bound ceiling moves in cores: the ceiling is the cores over a request's CPU, and a
 * request's CPU is a JVM's, which a start changes by itself (the stock /ledger read 25 ms
 * a request in one JVM and 16 ms in the next, both on a full core): under a CPU cap the
 * knob moved the ceiling when the cores the service used at it moved too, each ceiling
 * times the CPU a request took there.
 *
 * @param knob what was turned, e.g. {@code Hikari 8}
 * @param confirmed whether the ceiling moved the knob's way
 * @param ceilingBefore the sweep's ceiling, requests per second
 * @param ceilingAfter the highest throughput of the confirmation's steps
 * @param predicted the throughput the models predict with the knob turned
 * @param predictedBy what sets the prediction: the raised model, or the next cap
 * @param steps the confirmation's steps
 * @param nextCap what caps next with the knob turned, as its best step read it (as the
 * sweep's steps read it when it has none)
 * @param took how long the confirmation took, the service's start with the knob turned
 * included
 * @param coresBefore under a CPU cap, the cores the service used at the sweep's ceiling:
 * the ceiling times the CPU a request took on the step the verdict's model read; empty
 * under another cap
 * @param coresAfter under a CPU cap, the cores used at the ceiling with the knob turned,
 * as its best step read them; empty under another cap or without a reading
 */
public record Confirmation(String knob, boolean confirmed, double ceilingBefore, double ceilingAfter, double predicted,
		String predictedBy, List<Step> steps, Optional<Verdict.Bound> nextCap, Duration took,
		OptionalDouble coresBefore, OptionalDouble coresAfter) {

	public Confirmation {
		steps = List.copyOf(steps);
	}

	/**
	 * The users of the confirmation's two steps: the knee's and the next doubling, both
	 * doubled again when the knob doubles the limit, so that the users outnumber the
	 * raised limit (a knee at 2 users on 2 carriers, measured at 2 and 4 users on 4
	 * carriers, would show the users' cap, not the carriers').
	 */
	public static List<Integer> users(int knee, double factor) {
		int first = (int) Math.min(4096, Math.round(knee * Math.max(1, Math.ceil(factor))));
		return List.of(first, Math.min(4096, 2 * first));
	}

	/** How far the measured ceiling lies from the prediction: 0.04 for 4 %. */
	public double predictionError() {
		return Math.abs(this.ceilingAfter - this.predicted) / this.predicted;
	}

	/**
	 * "confirmed: with Hikari 8 the ceiling rose 15.7 → 31.0 rps (predicted 31.4 rps, by
	 * 8 connections / 0.255 s)", or "not confirmed: with Tomcat threads 16 the ceiling
	 * stayed at 15.8 rps (predicted 31.6 rps) — the cap is elsewhere".
	 */
	public String line() {
		if (this.coresBefore.isPresent() && this.coresAfter.isPresent()) {
			return coresLine(this.coresBefore.getAsDouble(), this.coresAfter.getAsDouble());
		}
		if (this.confirmed) {
			return String.format(Locale.ROOT,
					"confirmed: with %s the ceiling %s %.1f → %.1f rps (predicted %.1f rps," + " by %s)", this.knob,
					(this.ceilingAfter < this.ceilingBefore) ? "fell" : "rose", this.ceilingBefore, this.ceilingAfter,
					this.predicted, this.predictedBy);
		}
		return String.format(Locale.ROOT,
				"not confirmed: with %s the ceiling stayed at %.1f rps (was %.1f, predicted"
						+ " %.1f rps by %s) — the cap is elsewhere",
				this.knob, this.ceilingAfter, this.ceilingBefore, this.predicted, this.predictedBy);
	}

	/**
	 * "confirmed: with 0.5 CPUs the service's cores fell 1.01 → 0.50, the ceiling 51.8 →
	 * 20.8 rps (predicted …)", or "not confirmed: with Hikari 16 the service's cores went
	 * 0.97 → 0.98, the ceiling 51.9 → 59.8 rps as a request's CPU went 18.7 → 16.4 ms
	 * (predicted …) — the cap is elsewhere". Under a cap of the machine's cores, the
	 * cores are those the test's own processes used.
	 */
	private String coresLine(double before, double after) {
		String ceiling = String.format(Locale.ROOT, "the ceiling %.1f → %.1f rps", this.ceilingBefore,
				this.ceilingAfter);
		String perRequest = String.format(Locale.ROOT, " as a request's CPU went %.1f → %.1f ms",
				1000 * before / this.ceilingBefore, 1000 * after / this.ceilingAfter);
		String predicted = String.format(Locale.ROOT, "predicted %.1f rps, by %s", this.predicted, this.predictedBy);
		if (this.confirmed) {
			return String.format(Locale.ROOT, "confirmed: with %s the service's cores %s %.2f → %.2f, %s (%s)",
					this.knob, (after < before) ? "fell" : "rose", before, after, ceiling, predicted);
		}
		return String.format(Locale.ROOT,
				"not confirmed: with %s the service's cores went %.2f → %.2f, %s%s (%s) — the cap is elsewhere",
				this.knob, before, after, ceiling, perRequest, predicted);
	}

	/** The step of the confirmation with the highest throughput. */
	public Optional<Step> best() {
		return this.steps.stream().max(Comparator.comparingDouble(Step::throughput));
	}

	@Override
	public String toString() {
		return line();
	}

}
