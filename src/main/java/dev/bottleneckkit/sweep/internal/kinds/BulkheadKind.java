package dev.bottleneckkit.sweep.internal.kinds;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * A bulkhead at its limit: every permit of a semaphore held while request threads wait
 * for one. The seeds' fix for the bulkhead virtual threads take away is one, so once a
 * team has added it, it is what caps the service. Resilience4j's {@code Bulkhead} or a
 * plain {@code java.util.concurrent.Semaphore} in the team's code: where request threads
 * wait for it is in the dumps ({@link #PERMIT}, {@link Upstream#permits}). Its permits
 * are read from Resilience4j's meters where Actuator publishes them, else from the same
 * dumps: the request threads inside the team's code the waiters wait in, past the permit,
 * in the median dump. Its model is Little's law, permits / W₁: a request holds its permit
 * at most its whole latency.
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

	/** The bulkhead the steps at the cap wait in, when most of their dumps show one. */
	static Optional<Capped> bulkhead(AtCap at) {
		List<Read> reads = new ArrayList<>();
		for (AtCap.DumpWaits dump : at.waits()) {
			read(dump).ifPresent(reads::add);
		}
		int dumps = at.waits().size();
		if (!at.inMostDumps(reads.size())) {
			return Optional.empty();
		}
		Upstream.Wait wait = mostCommon(reads);
		List<Read> same = reads.stream()
			.filter((read) -> read.queue().what().equals(wait.what()) && read.queue().where().equals(wait.where()))
			.toList();
		int waiting = same.stream().mapToInt((read) -> read.queue().threads()).max().orElse(0);
		int holding = median(same.stream().map(Read::holding).toList());
		GaugeTimeline meters = at.last().service();
		OptionalDouble permits = meters.max(Gauge.BULKHEAD_MAX);
		Map<String, String> readings = new LinkedHashMap<>();
		int limit;
		int held;
		// Resilience4j's meters count its bulkheads' permits, not a semaphore's of the
		// team's own beside them.
		// They are read without a bulkhead's name, summed over a service's bulkheads: a
		// full bulkhead beside an idle one never reads all the permits held, and its
		// permits are counted in the dumps instead.
		boolean metered = wait.what().equals(PERMIT.what());
		int meteredLimit = (int) Math.round(permits.orElse(0));
		int meteredHeld = meteredLimit - (int) Math.round(meters.min(Gauge.BULKHEAD_AVAILABLE).orElse(meteredLimit));
		if (metered && meteredLimit >= 1 && meteredHeld == meteredLimit) {
			limit = meteredLimit;
			held = meteredHeld;
			readings.put("permits", String.format(Locale.ROOT,
					"%d from Resilience4j's meters (resilience4j.bulkhead.*), %d held at most", limit, held));
		}
		else {
			limit = holding;
			held = holding;
			String meterless = !metered || meteredLimit < 1 ? "no bulkhead meters read"
					: String.format(Locale.ROOT,
							"Resilience4j's meters read %d permits, %d held at most: the sum of its bulkheads",
							meteredLimit, meteredHeld);
			readings.put("permits",
					String.format(Locale.ROOT,
							"%d request threads past the permit in %s in the median of %d dumps (%s)", holding,
							wait.where(), same.size(), meterless));
		}
		if (limit < 1) {
			return Optional.empty();
		}
		readings.put("waiting", String.format(Locale.ROOT, "%d request threads for %s, at most, in %d of %d dumps",
				waiting, wait.what(), same.size(), dumps));
		return Optional.of(at.capped(Resource.BULKHEAD,
				String.format(Locale.ROOT, "%s in %s: %d/%d permits held, %d request threads waiting", wait.what(),
						wait.where(), held, limit, waiting),
				new Verdict.Model(limit, "permits", at.w1(), "W₁"), Optional.empty(), readings));
	}

	/**
	 * The wait for permits most request threads of {@code dump} are in, and the request
	 * threads inside the same code of the team's that are past it: they hold the permits.
	 */
	static Optional<Read> read(AtCap.DumpWaits dump) {
		return dump.first(Upstream.Kind.PERMITS)
			.map((waited) -> new Read(waited,
					(int) dump.dump()
						.matching((thread) -> ResourceKinds.SERVING.serves(thread) && thread.hasFrame(waited.where())
								&& !waitsForAPermit(thread))
						.size()));
	}

	private static boolean waitsForAPermit(DumpedThread thread) {
		return ResourceKinds.permits().stream().anyMatch((permit) -> thread.hasFrame(permit.frame()));
	}

	/**
	 * One dump's bulkhead: the wait and how many request threads held a permit.
	 *
	 * @param queue the request threads waiting for a permit, and where
	 * @param holding the request threads past the permit in the same code
	 */
	record Read(Upstream.Wait queue, int holding) {

	}

	/** The wait most dumps show: the same thing waited for, in the same code. */
	private static Upstream.Wait mostCommon(List<Read> reads) {
		Map<List<String>, List<Read>> byKey = reads.stream()
			.collect(Collectors.groupingBy((read) -> List.of(read.queue().what(), read.queue().where()),
					LinkedHashMap::new, Collectors.toList()));
		return byKey.values().stream().max(Comparator.comparingInt(List<Read>::size)).orElseThrow().get(0).queue();
	}

	/** The median, the lower of the two middle ones for an even count. */
	private static int median(List<Integer> values) {
		List<Integer> sorted = values.stream().sorted().toList();
		return sorted.get((sorted.size() - 1) / 2);
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
