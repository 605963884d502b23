package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.waits.Holding;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * The service's own thread pool at its limit: every thread of one executor running a task
 * while request threads wait on its work (a fixed pool fanning calls out, Spring's
 * {@code ThreadPoolTaskExecutor}, a {@code ForkJoinPool}), its threads named whatever the
 * team's code named them. Its model is the utilization law: the pool's threads over the
 * thread-seconds a request needs of it, read below the cap, where the pool had threads to
 * spare: the pool's busy threads in that step's dumps over the step's throughput (D = U /
 * X). A request that fans two calls out to the pool needs two threads for the calls'
 * time; one that hands it one short task, a fraction of its latency. A pool another kind
 * claims by its threads' name is named that kind ({@link ResourceKind#namesExecutor}: a
 * Resilience4j thread-pool bulkhead is a {@link BulkheadKind bulkhead}).
 * <p>
 * Spring's own task executor, the {@code applicationTaskExecutor} Boot configures (its
 * name in {@code where}, its sizes from its {@code executor.*} meters), is turned by
 * {@code spring.task.execution.pool.*}; the common pool by its parallelism; any other's
 * size is the team's code's, with no knob of the kit's.
 */
public final class ExecutorKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.EXECUTOR;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(ExecutorKind::heldByItsThreads);
	}

	/**
	 * The JDK's common pool by its threads' names: its parallelism is the cores less one
	 * unless {@code java.util.concurrent.ForkJoinPool.common.parallelism} sets it.
	 */
	static final String COMMON_POOL = "ForkJoinPool.commonPool-worker-";

	/**
	 * The common pool's parallelism, or Spring's task executor: its core raised, and its
	 * most with it (a {@code ThreadPoolExecutor} grows past its core only once its queue
	 * is full, and Boot's queue has no bound).
	 */
	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		if (verdict.where().filter(COMMON_POOL::equals).isPresent()) {
			return Optional.of(new KnobFamily(1, (value) -> Knob
				.of("common pool " + Knobs.count(value) + " threads", 1, (container) -> container
					.withJvmOptions("-Djava.util.concurrent.ForkJoinPool.common.parallelism=" + Math.round(value)))));
		}
		return verdict.where()
			.filter(SPRING_TASK_EXECUTOR::equals)
			.map((name) -> new KnobFamily(1,
					(value) -> Knob.of("Spring's task executor " + Knobs.count(value) + " threads", 1, (container) -> {
						container.withSpringProperty("spring.task.execution.pool.core-size", (int) Math.round(value));
						container.withSpringProperty("spring.task.execution.pool.max-size", (int) Math.round(value));
					})));
	}

	/**
	 * The bean name of the task executor Spring Boot configures, its knob
	 * {@code spring.task.execution.pool.*}.
	 */
	static final String SPRING_TASK_EXECUTOR = "applicationTaskExecutor";

	/**
	 * The pool whose busy threads hold what the requests wait for, where the dumps find
	 * the cap ({@link SiteReading#cap}): a future or a latch the threads of one pool
	 * complete, those threads flat while the waiters queue beyond them. A fan-out to the
	 * team's pool fills it; a dispatcher of the team's own or a client's runs a few calls
	 * at once on its threads and keeps the rest in a queue no thread waits in, so the
	 * pool need not be full (a cached pool keeps idle threads beside the ones its queue
	 * lets work). It is named by its threads and the frame that starts each unit of work,
	 * not by the connections those threads use; a kind whose threads they are names it
	 * ({@link ResourceKind#namesExecutor}), and Spring's own by its meters. Its model is
	 * the utilization law: its busy threads at the cap over the thread-seconds a request
	 * needs of them, read below the knee ({@link #demand}).
	 */
	static Optional<Capped> heldByItsThreads(AtCap at) {
		List<SiteReading> sites = SiteReading.of(at.readings().steps(), ResourceKinds.SERVING::serves);
		return SiteReading.cap(sites, at.last().users(), at.w1())
			.filter((cap) -> cap.holding().how() == Holding.How.BUSY_WORKERS)
			.flatMap((cap) -> cap.holding()
				.pool()
				.flatMap((pool) -> demand(at, pool).map((demand) -> capped(at, pool, cap, sites, demand))));
	}

	private static Capped capped(AtCap at, String pool, SiteReading.Cap cap, List<SiteReading> sites, Demand demand) {
		int threads = cap.holders();
		int waiting = (int) Math.round(cap.waiters());
		Map<String, String> readings = new LinkedHashMap<>(cap.readings(sites));
		readings.put("a request's demand", demand.line());
		Verdict.Model model = new Verdict.Model(threads, "threads", demand.seconds(), demand.holdIs());
		Optional<Capped> claimed = ResourceKinds.ALL.stream()
			.flatMap((kind) -> kind.namesExecutor(at, pool, threads, waiting, model, readings).stream())
			.findFirst();
		if (claimed.isPresent()) {
			return claimed.get();
		}
		String work = String.format(Locale.ROOT,
				"%d thread%s busy, each unit of work starting in `%s`; requests wait in %s, %d at once", threads,
				(threads == 1) ? "" : "s", cap.holding().frame().orElse("its task"), cap.site(), waiting);
		Optional<String> spring = springTaskExecutorMeters(at.last().service(), threads);
		if (spring.isPresent()) {
			readings.put("sizes", spring.get());
			return at.capped(Resource.EXECUTOR,
					String.format(Locale.ROOT, "Spring's task executor %s (%s*): %s", SPRING_TASK_EXECUTOR, pool, work),
					model, Optional.of(SPRING_TASK_EXECUTOR), readings);
		}
		return at.capped(Resource.EXECUTOR, String.format(Locale.ROOT, "the service's own pool %s*: %s", pool, work),
				model, Optional.of(pool), readings);
	}

	/**
	 * What Spring's {@code executor.*} meters say of its {@code applicationTaskExecutor},
	 * when they show it as the pool the dumps found full: as many threads active at most
	 * as the dumps counted busy, within its core and its most. "core 4, max 4 threads
	 * (spring.task.execution.pool.*), 4 active at most; 37 tasks queued at most".
	 */
	static Optional<String> springTaskExecutorMeters(GaugeTimeline meters, int threads) {
		OptionalDouble core = meters.max(Gauge.TASK_EXECUTOR_CORE);
		OptionalDouble max = meters.max(Gauge.TASK_EXECUTOR_MAX);
		OptionalDouble active = meters.max(Gauge.TASK_EXECUTOR_ACTIVE);
		if (core.isEmpty() || max.isEmpty() || active.isEmpty() || Math.round(active.getAsDouble()) != threads
				|| core.getAsDouble() > threads || max.getAsDouble() < threads) {
			return Optional.empty();
		}
		String sizes = String.format(Locale.ROOT,
				"core %d, max %d threads (spring.task.execution.pool.*), %d active at most",
				Math.round(core.getAsDouble()), Math.round(max.getAsDouble()), Math.round(active.getAsDouble()));
		OptionalDouble queued = meters.max(Gauge.TASK_EXECUTOR_QUEUED);
		if (queued.isPresent()) {
			sizes += String.format(Locale.ROOT, "; %d tasks queued at most", Math.round(queued.getAsDouble()));
		}
		return Optional.of(sizes);
	}

	/**
	 * The thread-seconds a request needs of {@code pool}, from the first step below the
	 * knee whose dumps show its threads at work. At one user, one request is all the pool
	 * serves: its busy threads in the dumps that caught that request in flight (the pool
	 * at work, or the request thread serving), times its median latency. A dump between
	 * two requests shows the pool idle for want of a request, and out of three dumps one
	 * such dump moved a mean by a third. Above one user, the step's mean busy threads
	 * over its throughput (D = U / X). One user is never queued behind another, so its
	 * step reads the demand even when it is the knee: a pool of one thread (the common
	 * pool on two cores) is full from the first user.
	 */
	static Optional<Demand> demand(AtCap at, String pool) {
		for (Step step : at.readings().steps()) {
			boolean queueFree = step.users() < at.kneeUsers() || step.users() == 1;
			if (!queueFree || step.threads().isEmpty() || step.throughput() <= 0) {
				continue;
			}
			List<ThreadDump> dumps = step.threads();
			if (step.users() == 1) {
				// In flight: the pool at work, or the request thread serving outside a
				// wait on the pool's work. A request waiting on a future while the pool
				// is idle is the handoff between them (the work done, the waiter not yet
				// woken): a few milliseconds of the request, which one dump of the two or
				// three in flight would count as half or a third of it.
				// Where the step's dumps show request threads at all, a dump with none
				// serving caught the pool finishing a request that had already left (a
				// dump walks the threads one by one): one such dump of two read 1.5 busy
				// threads for 2. A reactive route's request holds no thread to be seen.
				boolean requestsSeen = dumps.stream()
					.anyMatch((dump) -> !dump.matching(ResourceKinds.SERVING::serves).isEmpty());
				List<ThreadDump> inFlight = dumps.stream().filter((dump) -> {
					boolean serving = !dump.matching(ResourceKinds.SERVING::serves).isEmpty();
					if (requestsSeen && !serving) {
						return false;
					}
					return busyIn(dump, pool) > 0 || (serving && !Upstream.waitsOnAFuture(dump, ResourceKinds.SERVING));
				}).toList();
				double busy = busyWhileInFlight(inFlight, pool);
				if (busy > 0) {
					// The typical request's latency, as the few dumps sample a typical
					// request: a request slowed in the service's own code (a compile, a
					// collection) lengthens the mean but holds no pool thread longer, and
					// the mean would lower the model by what the slow ones added.
					double latency = step.result().median().toNanos() / 1e9;
					return Optional.of(new Demand(busy * latency,
							String.format(Locale.ROOT, "%.1f busy × W₁ %.3f s (median)", busy, latency),
							String.format(Locale.ROOT,
									"%.1f threads busy while the request was in flight, in %d of %d"
											+ " dumps at 1 user, for its median %.3f s",
									busy, inFlight.size(), dumps.size(), latency)));
				}
				continue;
			}
			double busy = meanBusy(dumps, pool);
			if (busy > 0) {
				return Optional.of(new Demand(busy / step.throughput(),
						String.format(Locale.ROOT, "%.1f busy ÷ %.1f rps at %s", busy, step.throughput(),
								AtCap.usersText(step.users())),
						String.format(Locale.ROOT, "%.1f threads busy in %d dumps at %s, for %.1f rps", busy,
								dumps.size(), AtCap.usersText(step.users()), step.throughput())));
			}
		}
		return Optional.empty();
	}

	/**
	 * A request's busy threads of {@code pool} over the dumps that caught it in flight:
	 * the threads it runs at once, as most dumps in which the pool works count them (the
	 * higher on a tie: a dump walks the threads one by one, so it sees a thread done too
	 * soon more often than one started too soon), times the share of those dumps in which
	 * it works. Two queries side by side read 2, where a dump that caught one finished
	 * before the other moved a mean of two dumps to 1.5; a pool at work for a third of
	 * the request reads a third of its threads, as the mean does.
	 */
	private static double busyWhileInFlight(List<ThreadDump> inFlight, String pool) {
		List<Integer> working = inFlight.stream().map((dump) -> busyIn(dump, pool)).filter((busy) -> busy > 0).toList();
		if (working.isEmpty()) {
			return 0;
		}
		Map<Integer, Long> counts = working.stream()
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
		int width = counts.entrySet()
			.stream()
			.max(Map.Entry.<Integer, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
			.orElseThrow()
			.getKey();
		return width * (double) working.size() / inFlight.size();
	}

	/**
	 * The threads of {@code pool} running a task, the mean of {@code dumps}; 0 without.
	 */
	private static double meanBusy(List<ThreadDump> dumps, String pool) {
		return dumps.stream().mapToInt((dump) -> busyIn(dump, pool)).average().orElse(0);
	}

	/** The threads of {@code pool} running a task in {@code dump}. */
	private static int busyIn(ThreadDump dump, String pool) {
		return Upstream.executors(dump, ResourceKinds.SERVING)
			.stream()
			.filter((executor) -> executor.name().equals(pool))
			.mapToInt(Upstream.Executor::busy)
			.sum();
	}

	/**
	 * What a request needs of a pool, read at one step below the cap.
	 *
	 * @param threadSeconds the thread-seconds a request needs of it
	 * @param holdIs how, in a few words: "2.0 busy × W₁ 0.214 s"
	 * @param read how, for a person
	 */
	public record Demand(double threadSeconds, String holdIs, String read) {

		Duration seconds() {
			return Duration.ofNanos(Math.round(this.threadSeconds * 1e9));
		}

		String line() {
			return String.format(Locale.ROOT, "%.3f thread-seconds: %s", this.threadSeconds, this.read);
		}

	}

}
