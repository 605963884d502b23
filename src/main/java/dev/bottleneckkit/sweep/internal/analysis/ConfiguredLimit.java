package dev.bottleneckkit.sweep.internal.analysis;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;

/**
 * A limit a service configures and publishes as a meter: the resource, the meters of its
 * limit and of its use, and how a bound names it ({@code name} formats the limit).
 */
public record ConfiguredLimit(Resource resource, Gauge limit, Gauge inUse, String name, String unit) {

	/** Its bound at {@code max}, each request holding it for {@code hold}. */
	public Verdict.Bound at(double max, Duration hold, String holdIs) {
		return new Verdict.Bound(this.resource, String.format(Locale.ROOT, this.name, max),
				new Verdict.Model(max, this.unit, hold, holdIs));
	}

	/** The limit the last step read, where the steps saw the resource in use. */
	public OptionalDouble used(AtCap at) {
		boolean used = at.atCap().stream().anyMatch((s) -> s.service().max(this.inUse).orElse(0) >= 1)
				|| at.last().service().max(this.inUse).orElse(0) >= 1;
		return used ? at.last().service().max(this.limit) : OptionalDouble.empty();
	}

	/** Its bound at W₁, where the steps saw it in use: a request holds it at most W₁. */
	public Optional<Verdict.Bound> atW1(AtCap at) {
		OptionalDouble max = used(at);
		return max.isPresent() ? Optional.of(at(max.getAsDouble(), at.w1(), "W₁")) : Optional.empty();
	}

	/**
	 * {@code bound} at the limit {@code turned} read, where that differs: the same hold.
	 */
	public Verdict.Bound asConfigured(Verdict.Bound bound, Step turned) {
		OptionalDouble now = turned.service().max(this.limit);
		if (now.isEmpty() || !(now.getAsDouble() > 0) || now.getAsDouble() == bound.model().limit()) {
			return bound;
		}
		return at(now.getAsDouble(), bound.model().hold(), bound.model().holdIs());
	}

}
