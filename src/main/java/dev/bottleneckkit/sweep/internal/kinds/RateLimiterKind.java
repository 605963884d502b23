package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.read.RateLimits;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * A rate limiter at its rate: request threads waiting for a permit of a period to come.
 * The seeds' other fix for the bulkhead virtual threads take away, so once a team has
 * added one, it is what caps the service: throughput flat at its permits a period,
 * whatever the users and the latency. The waiting is read from Resilience4j's meters
 * ({@code resilience4j.ratelimiter.waiting_threads}) or from where the request threads
 * wait in the dumps ({@link #PERMIT}); the rate from the rate limiter's configuration
 * ({@link RateLimits}). Its model is the permits over the period, and holds no latency: a
 * rate limiter counts requests, not how long they take. A rate limiter whose rate the kit
 * cannot read (one configured in code, Guava's) names no cap: the verdict stays
 * unexplained with where the request threads wait, and names none of the Resilience4j
 * rate limiters beside it; a test that declares its rate gets it named
 * ({@link Resource.Own#permitsPerSecond}). Its name is in {@code where}; it is turned by
 * Resilience4j's {@code limit-for-period} of that name.
 */
public final class RateLimiterKind implements ResourceKind {

	/**
	 * Resilience4j's rate limiter: the one wait for a rate whose rate its configuration
	 * gives ({@link RateLimits}).
	 */
	static final Upstream.Permit PERMIT = new Upstream.Permit(
			"io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter.waitForPermission",
			"a Resilience4j rate limiter", Upstream.Kind.RATE);

	@Override
	public Resource resource() {
		return Resource.RATE_LIMITER;
	}

	@Override
	public List<Upstream.Permit> permits() {
		return List.of(PERMIT);
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(RateLimiterKind::rateLimiter);
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.map((name) -> new KnobFamily(1,
					(value) -> Knob.springProperty("rate limiter " + name + " " + Knobs.count(value) + " a period",
							"resilience4j.ratelimiter.instances." + name + ".limit-for-period", (int) Math.round(value),
							1)));
	}

	/**
	 * The rates of the rate limiters whose meters {@code steps} show, read from their
	 * configuration ({@link RateLimits}): none where no step shows them.
	 */
	@Override
	public List<RateLimits.Rate> settings(List<Step> steps, JmxAgent agent, List<String> blind) {
		if (steps.stream().noneMatch((step) -> step.service().max(Gauge.RATE_LIMITER_AVAILABLE).isPresent())) {
			return List.of();
		}
		try (RunHook.Span reading = RunHook.installed().begin(RunHook.Work.PROBE, "reading the rate limiters' rates")) {
			return RateLimits.read(agent, blind);
		}
	}

	static Optional<Capped> rateLimiter(AtCap at) {
		List<RateLimits.Rate> rates = at.readings().settings(RateLimits.Rate.class);
		if (rates.isEmpty()) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		OptionalDouble waitingMeter = at.last().service().max(Gauge.RATE_LIMITER_WAITING);
		int waiting;
		if (waitingMeter.isPresent() && waitingMeter.getAsDouble() >= 1) {
			waiting = (int) Math.round(waitingMeter.getAsDouble());
			readings.put("waiting", String.format(Locale.ROOT,
					"%d request threads at most (resilience4j.ratelimiter.waiting_threads)", waiting));
		}
		else {
			// Only Resilience4j's own waiters: a Guava rate limiter beside it has a rate
			// of its own, which its configuration does not give.
			List<Upstream.Wait> waits = at.waits()
				.stream()
				.flatMap((dump) -> dump.waits()
					.stream()
					.filter((wait) -> wait.what().equals(PERMIT.what()))
					.findFirst()
					.stream())
				.toList();
			int dumps = at.waits().size();
			if (!at.inMostDumps(waits.size())) {
				return Optional.empty();
			}
			Upstream.Wait most = waits.stream().max(Comparator.comparingInt(Upstream.Wait::threads)).orElseThrow();
			waiting = most.threads();
			readings.put("waiting",
					String.format(Locale.ROOT, "%s, at most, in %d of %d dumps", most.line(), waits.size(), dumps));
		}
		return rates.stream().map((rate) -> {
			Map<String, String> all = new LinkedHashMap<>(readings);
			all.put("rate", rate.from());
			return at.capped(Resource.RATE_LIMITER,
					String.format(Locale.ROOT,
							"a Resilience4j rate limiter (%s): %d permits every %s, %d request threads waiting",
							rate.name(), rate.permits(), every(rate.period()), waiting),
					new Verdict.Model(rate.permits(), "permits", rate.period(), "a period"), Optional.of(rate.name()),
					all);
		}).min(Comparator.comparingDouble(Capped::modelError));
	}

	/** "1 s", "500 ms", "250 µs". */
	static String every(Duration period) {
		long nanos = period.toNanos();
		if (nanos % 1_000_000_000L == 0) {
			return (nanos / 1_000_000_000L) + " s";
		}
		if (nanos % 1_000_000L == 0) {
			return (nanos / 1_000_000L) + " ms";
		}
		return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
	}

}
