package dev.bottleneckkit.sweep.internal.kinds;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.waits.Primitive;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * A bulkhead at its limit: every permit of a semaphore held while request threads wait
 * for one. The seeds' fix for the bulkhead virtual threads take away is one, so once a
 * team has added it, it is what caps the service. Resilience4j's {@code Bulkhead} or a
 * plain {@code java.util.concurrent.Semaphore} in the team's code: the wait site where
 * the dumps find the cap is a semaphore's ({@link SiteReading}). Its permits are read
 * from Resilience4j's meters where Actuator publishes them, else they are the site's
 * holders: the request threads past the permit, in the median dump. Its model is Little's
 * law, permits / W₁: a request holds its permit at most its whole latency. Other kinds
 * know its wait for a permit by {@link #PERMIT} ({@link Upstream#permits}).
 * <p>
 * A thread-pool bulkhead is found as the executor it is ({@link ExecutorKind}) and named
 * a bulkhead with its name in {@code where}: its knob raises its core and its most
 * threads. The TCP connections it lets through agree with its permits, yet are not where
 * it is.
 */
public final class BulkheadKind implements ResourceKind {

	/**
	 * Resilience4j's semaphore bulkhead: the one wait for permits whose permits its
	 * {@code resilience4j.bulkhead.*} meters count.
	 */
	static final Upstream.Permit PERMIT = new Upstream.Permit(
			"io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead.acquirePermission", "a Resilience4j bulkhead",
			Upstream.Kind.PERMITS);

	/** Resilience4j's bulkheads' frames. */
	private static final String RESILIENCE4J = "io.github.resilience4j.bulkhead.";

	@Override
	public Resource resource() {
		return Resource.BULKHEAD;
	}

	@Override
	public List<Upstream.Permit> permits() {
		return List.of(PERMIT);
	}

	/**
	 * A full executor whose threads are a Resilience4j thread-pool bulkhead's
	 * ({@code bulkhead-<name>-<n>}): named a bulkhead, with the sizes its meters give
	 * when Actuator publishes them.
	 */
	@Override
	public Optional<Capped> namesExecutor(AtCap at, String pool, int threads, int waiting, Verdict.Model model,
			Map<String, String> readings) {
		return threadPoolBulkhead(pool).map((name) -> {
			Map<String, String> all = new LinkedHashMap<>(readings);
			threadPoolBulkheadMeters(at.last().service(), threads).ifPresent((sizes) -> all.put("sizes", sizes));
			return at
				.capped(Resource.BULKHEAD,
						String.format(Locale.ROOT,
								"Resilience4j's thread-pool bulkhead %s: %d/%d threads busy, %d request threads waiting"
										+ " on its work",
								name, threads, threads, waiting),
						model, Optional.of(name), all);
		});
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(BulkheadKind::bulkhead);
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	@Override
	public boolean connectionsAgree() {
		return true;
	}

	@Override
	public boolean atItsDestination() {
		return false;
	}

	/**
	 * A thread-pool bulkhead's (its name in {@code where}; a semaphore's has none): its
	 * calls run on its core threads until its queue is full, so the core is raised, and
	 * the most with it.
	 */
	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.map((name) -> new KnobFamily(1,
					(value) -> Knob.of("bulkhead " + name + " " + Knobs.count(value) + " threads", 1, (container) -> {
						String instance = "resilience4j.thread-pool-bulkhead.instances." + name;
						container.withSpringProperty(instance + ".core-thread-pool-size", (int) Math.round(value));
						container.withSpringProperty(instance + ".max-thread-pool-size", (int) Math.round(value));
					})));
	}

	/**
	 * The bulkhead where the dumps find the cap ({@link SiteReading#cap}): request
	 * threads waiting for a semaphore's permit, Resilience4j's or the team's own. Its
	 * permits are the holders the dumps count past it, or Resilience4j's meters where
	 * they read every permit held.
	 */
	static Optional<Capped> bulkhead(AtCap at) {
		List<SiteReading> sites = SiteReading.of(at.readings().steps(), ResourceKinds.SERVING::serves);
		return SiteReading.cap(sites, at.last().users(), at.w1())
			.filter((cap) -> cap.site().primitive() == Primitive.SEMAPHORE)
			.flatMap((cap) -> permits(at, cap, sites));
	}

	private static Optional<Capped> permits(AtCap at, SiteReading.Cap cap, List<SiteReading> sites) {
		GaugeTimeline meters = at.last().service();
		Map<String, String> readings = new LinkedHashMap<>(cap.readings(sites));
		// Resilience4j's meters count its bulkheads' permits, not a semaphore's of the
		// team's own beside them. They are read without a bulkhead's name, summed over a
		// service's bulkheads: a full bulkhead beside an idle one never reads all the
		// permits held, and its permits are counted in the dumps instead.
		boolean metered = cap.site().frame().startsWith(RESILIENCE4J);
		int meteredLimit = (int) Math.round(meters.max(Gauge.BULKHEAD_MAX).orElse(0));
		int meteredHeld = meteredLimit - (int) Math.round(meters.min(Gauge.BULKHEAD_AVAILABLE).orElse(meteredLimit));
		int limit;
		int held;
		if (metered && meteredLimit >= 1 && meteredHeld == meteredLimit) {
			limit = meteredLimit;
			held = meteredHeld;
			readings.put("permits", String.format(Locale.ROOT,
					"%d from Resilience4j's meters (resilience4j.bulkhead.*), %d held at most", limit, held));
		}
		else {
			limit = cap.holders();
			held = cap.holders();
			String meterless = !metered || meteredLimit < 1 ? "no bulkhead meters read"
					: String.format(Locale.ROOT,
							"Resilience4j's meters read %d permits, %d held at most: the sum of its bulkheads",
							meteredLimit, meteredHeld);
			readings.put("permits", String.format(Locale.ROOT, "%d holders in the dumps (%s)", limit, meterless));
		}
		return Optional.of(at.capped(Resource.BULKHEAD,
				String.format(Locale.ROOT, "%s: %d/%d permits held; %s",
						metered ? "a Resilience4j bulkhead" : "a semaphore", held, limit, cap.saw()),
				new Verdict.Model(limit, "permits", at.w1(), "W₁"), Optional.empty(), readings));
	}

	/**
	 * The threads of a Resilience4j thread-pool bulkhead without their number:
	 * {@code bulkhead-offers-}.
	 */
	private static final Pattern RESILIENCE4J_THREADS = Pattern.compile("bulkhead-(.+)-");

	/**
	 * The name of the Resilience4j thread-pool bulkhead whose threads are {@code pool}:
	 * its threads are named {@code bulkhead-<name>-<n>}.
	 */
	static Optional<String> threadPoolBulkhead(String pool) {
		Matcher matcher = RESILIENCE4J_THREADS.matcher(pool);
		return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
	}

	/**
	 * What Resilience4j's meters say of a thread-pool bulkhead's sizes, when Actuator
	 * publishes them: "core 2, max 4 threads (resilience4j.bulkhead.*); 14 calls queued
	 * at most, of 100: it runs on 2 threads and grows towards 4 only once its queue is
	 * full". A {@code ThreadPoolExecutor} starts a thread past its core only when its
	 * queue is full. The meters are read without a bulkhead's name, so a service with
	 * more than one sums them: a core above the threads the dumps counted is such a sum,
	 * and not said.
	 */
	static Optional<String> threadPoolBulkheadMeters(GaugeTimeline meters, int threads) {
		OptionalDouble core = meters.max(Gauge.THREAD_POOL_BULKHEAD_CORE);
		OptionalDouble max = meters.max(Gauge.THREAD_POOL_BULKHEAD_MAX);
		if (core.isEmpty() || max.isEmpty() || core.getAsDouble() > threads) {
			return Optional.empty();
		}
		String sizes = String.format(Locale.ROOT, "core %d, max %d threads (resilience4j.bulkhead.*)",
				Math.round(core.getAsDouble()), Math.round(max.getAsDouble()));
		OptionalDouble queued = meters.max(Gauge.THREAD_POOL_BULKHEAD_QUEUED);
		OptionalDouble capacity = meters.max(Gauge.THREAD_POOL_BULKHEAD_QUEUE_CAPACITY);
		if (queued.isPresent() && capacity.isPresent()) {
			sizes += String.format(Locale.ROOT, "; %d calls queued at most, of %d", Math.round(queued.getAsDouble()),
					Math.round(capacity.getAsDouble()));
			if (threads < max.getAsDouble() && queued.getAsDouble() < capacity.getAsDouble()) {
				sizes += String.format(Locale.ROOT,
						": it runs on %d threads and grows towards %d only once its queue is full", threads,
						Math.round(max.getAsDouble()));
			}
		}
		return Optional.of(sizes);
	}

}
