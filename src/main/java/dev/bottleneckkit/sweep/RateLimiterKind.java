package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A rate limiter at its rate ({@link RateLimiters}), its name in {@code where}; turned by
 * Resilience4j's {@code limit-for-period} of that name.
 */
final class RateLimiterKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.RATE_LIMITER;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(RateLimiters::rateLimiter);
	}

	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.map((name) -> new Knob.Family(1,
					(value) -> Knob.springProperty("rate limiter " + name + " " + Verdict.count(value) + " a period",
							"resilience4j.ratelimiter.instances." + name + ".limit-for-period", (int) Math.round(value),
							1)));
	}

}
