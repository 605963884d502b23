package dev.bottleneckkit.sweep;

import java.util.Locale;
import java.util.Map;

/**
 * What a {@link Sweep} concluded: the resource that caps the service, the numbers that
 * prove it, and the throughput Little's law allows that resource ({@code limit / W}), to
 * hold the measured ceiling against.
 *
 * @param resource the cap, {@link Resource#NONE} when throughput never stopped rising,
 * {@link Resource#UNEXPLAINED} when it did and no probe explains it
 * @param line one line a person reads first, e.g.
 * {@code capped at 10.0 rps from 8 users: Hikari pool 4/4 active,
 * 8 pending — 4 connections / 1.004 s = 4.0 rps}
 * @param ceilingRps the throughput the service stopped at (requests per second), NaN
 * without a cap
 * @param modelRps what Little's law allows the named resource, NaN when the verdict has
 * no model
 * @param evidence the probes' readings behind the verdict, in the order they matter
 */
public record Verdict(Resource resource, String line, double ceilingRps, double modelRps,
		Map<String, String> evidence) {

	/** The line reads "from 1 user", not "from 1 users". */
	public Verdict {
		line = line.replaceAll("(?<![\\d.])1 users", "1 user");
	}

	/**
	 * How far the measured ceiling lies from the model: 0.02 for 2 %; NaN without both.
	 */
	public double modelError() {
		return Math.abs(this.ceilingRps - this.modelRps) / this.modelRps;
	}

	/** Whether a model was computed for this verdict. */
	public boolean hasModel() {
		return !Double.isNaN(this.modelRps) && !Double.isNaN(this.ceilingRps);
	}

	@Override
	public String toString() {
		return this.line + (hasModel()
				? String.format(Locale.ROOT, " (measured %.1f rps, model %.1f rps)", this.ceilingRps, this.modelRps)
				: "");
	}

}
