package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A verdict put to the test: the service started again with the named resource's knob
 * turned ({@link Knob}), and the knee's step and the next doubling measured. The verdict
 * holds when the ceiling rose at least as a doubling of the users must
 * ({@value #ROSE_PERCENT} %); the prediction it is held against is the raised resource's
 * model or the next cap's, whichever is lower.
 *
 * @param knob what was turned, e.g. {@code Hikari 8}
 * @param confirmed whether the ceiling rose
 * @param ceilingBefore the sweep's ceiling, requests per second
 * @param ceilingAfter the highest throughput of the confirmation's steps
 * @param predicted the throughput the models predict with the knob turned
 * @param predictedBy what sets the prediction: the raised model, or the next cap
 * @param steps the confirmation's steps
 * @param took how long the confirmation took, the service's start included
 * @param restore how long putting the service back as it was took (a start)
 */
public record Confirmation(String knob, boolean confirmed, double ceilingBefore, double ceilingAfter, double predicted,
		String predictedBy, List<Step> steps, Duration took, Duration restore) {

	/** A ceiling that rose by less than this share did not move. */
	static final int ROSE_PERCENT = 15;

	public Confirmation {
		steps = List.copyOf(steps);
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
		if (this.confirmed) {
			return String.format(Locale.ROOT,
					"confirmed: with %s the ceiling rose %.1f → %.1f rps (predicted %.1f rps," + " by %s)", this.knob,
					this.ceilingBefore, this.ceilingAfter, this.predicted, this.predictedBy);
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
