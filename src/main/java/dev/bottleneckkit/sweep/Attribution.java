package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.probe.OutboundConnections;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.Verdict.Model;

/**
 * Names the resource that saturated in a sweep, from what the probes read in its most
 * loaded steps. Each rule looks for a resource at its limit with work waiting for it and
 * gives it a model, Little's law or the utilization law from the same steps
 * ({@code limit / hold}); the first whose model explains the measured ceiling within
 * {@value #MODEL_AGREEMENT} names the cap. A resource at its limit whose model does not
 * explain the ceiling is a candidate the verdict lists; when none explains it the verdict
 * is {@link Verdict.Unexplained}, with what was seen and what could not be seen: it never
 * guesses.
 */
final class Attribution {

	/**
	 * A resource names the cap only when its model (limit / hold) and the measured
	 * ceiling lie within this share of each other, the larger over the smaller
	 * ({@link Verdict.Capped#modelError()}); otherwise it is a candidate the verdict
	 * lists.
	 */
	static final double MODEL_AGREEMENT = 0.25;

	/** A container, or the machine, at this share of its cores or more is CPU-bound. */
	static final double CPU_SATURATED = 0.85;

	/**
	 * The load generator's share of the machine above which the verdict says it matters.
	 */
	static final double GENERATOR_NOTE = 0.15;

	/**
	 * A lock is a crowd when at least this share of the request threads in a dump wait
	 * for it.
	 */
	static final double LOCK_CROWD = 0.5;

	/**
	 * Carriers count as a candidate when pinned threads held at least this many of them
	 * on average.
	 */
	static final double PINNED_CARRIERS = 0.5;

	/** Frames of a thread serving an HTTP request on a servlet container or Undertow. */
	static final List<String> REQUEST_FRAMES = List.of("org.apache.catalina.core.ApplicationFilterChain",
			"jakarta.servlet.http.HttpServlet.service", "javax.servlet.http.HttpServlet.service",
			"org.eclipse.jetty.server.Server.handle", "io.undertow.server.Connectors.executeRootHandler");

	/** Frames of a worker thread idle in its pool, waiting for the next request. */
	static final List<String> IDLE_WORKER_FRAMES = List.of("java.util.concurrent.ThreadPoolExecutor.getTask",
			"org.apache.tomcat.util.threads.TaskQueue",
			"org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.idleJobPoll",
			"org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait",
			"org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode.park",
			"org.jboss.threads.EnhancedQueueExecutor.park");

	/**
	 * Frames of a request thread waiting for an HttpClient 5 pooled connection (all of
	 * them on its stack).
	 */
	static final List<String> HTTP_CLIENT_WAITING = List.of("org.apache.hc.core5.concurrent.BasicFuture.get",
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint");

	/** Frames of a request thread that holds an HttpClient 5 connection (any of them). */
	static final List<String> HTTP_CLIENT_HOLDING = List.of("org.apache.hc.client5.http.impl.classic.MainClientExec",
			"org.apache.hc.client5.http.impl.classic.ConnectExec");

	/**
	 * Frames of a request thread between holding and not holding an HttpClient 5
	 * connection (any of them): leasing one (in the pool's lock, not yet parked in its
	 * future) or handing one back, which a waiter may already have taken. A dump catches
	 * such a thread at an instant; counted as a holder it would be one too many.
	 */
	static final List<String> HTTP_CLIENT_PASSING = List.of(
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint",
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.releaseEndpoint",
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.discardEndpoint",
			"org.apache.hc.core5.pool.StrictConnPool.release", "org.apache.hc.core5.pool.LaxConnPool.release");

	/** Frames of a request thread waiting for a Hikari connection (all of them). */
	static final List<String> HIKARI_WAITING = List.of("com.zaxxer.hikari.util.ConcurrentBag.borrow",
			"com.zaxxer.hikari.pool.HikariPool.getConnection");

	/**
	 * Frames of a request thread that holds a Hikari connection: a statement or
	 * connection proxy at work.
	 */
	static final List<String> HIKARI_HOLDING = List.of("com.zaxxer.hikari.pool.HikariProxyPreparedStatement",
			"com.zaxxer.hikari.pool.HikariProxyStatement", "com.zaxxer.hikari.pool.HikariProxyConnection",
			"com.zaxxer.hikari.pool.HikariProxyCallableStatement", "com.zaxxer.hikari.pool.HikariProxyResultSet");

	/**
	 * Frames of a request thread borrowing a Hikari connection or handing one back (any
	 * of them): not a holder at that instant.
	 */
	static final List<String> HIKARI_PASSING = List.of("com.zaxxer.hikari.pool.HikariPool.getConnection",
			"com.zaxxer.hikari.pool.ProxyConnection.close", "com.zaxxer.hikari.pool.HikariPool.recycle");

	/** The resources whose model divides by what a request demands, read on a step. */
	private static final Set<Resource> DEMANDS = EnumSet.of(Resource.CARRIER_THREADS, Resource.CPU,
			Resource.DOWNSTREAM);

	private final SweepResult sweep;

	private final Step step;

	/** The steps the rules read at the cap: the knee's and after. */
	private final List<Step> atCap;

	private final double ceiling;

	private final int kneeUsers;

	private final Duration w1;

	private final List<String> blind;

	private Attribution(SweepResult sweep, List<String> blind) {
		this.sweep = sweep;
		this.step = sweep.steps().get(sweep.steps().size() - 1);
		this.ceiling = sweep.ceiling();
		this.kneeUsers = sweep.knee().map(Step::users).orElse(this.step.users());
		this.atCap = sweep.steps().stream().filter((s) -> s.users() >= this.kneeUsers).toList();
		this.w1 = sweep.oneUserLatency();
		this.blind = blind;
	}

	/**
	 * The verdict on {@code sweep}, whose probes could not see what {@code blind} says.
	 */
	static Verdict of(SweepResult sweep, List<String> blind) {
		return new Attribution(sweep, blind).verdict();
	}

	/** The verdict on {@code sweep}, every probe seeing. */
	static Verdict of(SweepResult sweep) {
		return of(sweep, List.of());
	}

	/**
	 * Each resource's own ceiling, read from the sweep whether or not it was full, lowest
	 * first: pools and threads by their configured limit over W₁ (a use, for Hikari),
	 * carriers over the pinned time of a request, the CPU over the CPU of a request, the
	 * stand-in downstream's threads over its hold. What caps next is the lowest after the
	 * verdict's own.
	 */
	static List<Verdict.Bound> bounds(SweepResult sweep) {
		return new Attribution(sweep, List.of()).bounds();
	}

	private List<Verdict.Bound> bounds() {
		List<Verdict.Bound> bounds = new ArrayList<>();
		GaugeTimeline gauges = this.step.service();
		// A resource the route does not use has no ceiling on it: pools and threads count
		// only when the steps saw them in use.
		if (inUse(gauges, Gauge.TOMCAT_BUSY)) {
			gauges.max(Gauge.TOMCAT_MAX)
				.ifPresent((max) -> bounds.add(new Verdict.Bound(Resource.TOMCAT_THREADS,
						String.format(Locale.ROOT, "Tomcat threads (%.0f configured)", max),
						new Model(max, "threads", this.w1, "W₁"))));
		}
		if (inUse(gauges, Gauge.HIKARI_ACTIVE)) {
			gauges.max(Gauge.HIKARI_MAX).ifPresent((max) -> {
				Optional<Duration> use = gauges.meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES);
				bounds.add(new Verdict.Bound(Resource.HIKARI_POOL,
						String.format(Locale.ROOT, "Hikari pool (%.0f connections)", max),
						new Model(max, "connections", use.orElse(this.w1), use.isPresent() ? "a use" : "W₁")));
			});
		}
		if (inUse(gauges, Gauge.HTTP_POOL_LEASED)) {
			gauges.max(Gauge.HTTP_POOL_MAX_PER_ROUTE)
				.ifPresent((max) -> bounds.add(new Verdict.Bound(Resource.HTTP_CLIENT_POOL,
						String.format(Locale.ROOT, "HttpClient pool (%.0f per route)", max),
						new Model(max, "connections", this.w1, "W₁"))));
		}
		if (inUse(gauges, Gauge.REACTOR_ACTIVE)) {
			gauges.max(Gauge.REACTOR_MAX)
				.ifPresent((max) -> bounds.add(new Verdict.Bound(Resource.REACTOR_NETTY_POOL,
						String.format(Locale.ROOT, "Reactor Netty pool (%.0f connections)", max),
						new Model(max, "connections", this.w1, "W₁"))));
		}
		bounds.addAll(demandBounds(this.step));
		bounds.sort(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
		return bounds;
	}

	/**
	 * What caps next with the knob turned, read from {@code turned}, the confirmation's
	 * best step: the configured limits as the sweep read them, the demands a request
	 * makes (its CPU, its pinned time, the downstream's hold) as that step measured them.
	 * A demand read on the knee's step is the service's at that step's pace and warmth: a
	 * service still warming, or one whose carriers queued, spent more CPU a request there
	 * than it spends with the cap raised.
	 */
	static Optional<Verdict.Bound> nextCap(SweepResult sweep, Step turned) {
		Optional<Resource> cap = sweep.verdict().cap();
		List<Verdict.Bound> bounds = new ArrayList<>(
				sweep.bounds().stream().filter((bound) -> !DEMANDS.contains(bound.resource())).toList());
		bounds.addAll(demandBounds(turned));
		return bounds.stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= sweep.ceiling())
			.min(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
	}

	/**
	 * The ceiling {@code step}'s measured demand on {@code resource} gives, if it has
	 * one.
	 */
	static Optional<Verdict.Bound> demand(Step step, Resource resource) {
		return demandBounds(step).stream().filter((bound) -> bound.resource() == resource).findFirst();
	}

	/**
	 * The ceilings a step's measured demands give: carriers over the pinned time of a
	 * request, the CPU over the CPU of a request, the stand-in downstream's threads over
	 * its hold.
	 */
	private static List<Verdict.Bound> demandBounds(Step step) {
		List<Verdict.Bound> bounds = new ArrayList<>();
		long requests = requests(step);
		if (!step.pinned().isEmpty() && requests > 0 && step.carriers().isPresent()) {
			bounds.add(new Verdict.Bound(Resource.CARRIER_THREADS, step.carriers().getAsInt() + " carriers, pinned",
					new Model(step.carriers().getAsInt(), "carriers", step.pinnedTime().dividedBy(requests),
							"pinned per request")));
		}
		step.cpu().filter((use) -> requests > 0).ifPresent((use) -> {
			// As the CPU rule reads it: the test's own CPU over the cores others left it.
			double cores = use.serviceLimited() ? use.service() : use.machineUsed() - use.others();
			double limit = use.serviceLimited() ? use.serviceLimit() : use.machineCores() - use.others();
			if (cores > 0.01) {
				bounds.add(new Verdict.Bound(Resource.CPU,
						use.serviceLimited() ? "CPU (" + Verdict.count(limit) + " of the container's)"
								: "CPU (the machine's " + Verdict.count(limit) + " cores)",
						new Model(limit, "cores", perRequest(cores, step), "CPU per request")));
			}
		});
		step.standIn()
			.filter((held) -> held.threads().isPresent() && held.meanServiceTime().toNanos() > 0)
			.ifPresent((held) -> bounds.add(new Verdict.Bound(Resource.DOWNSTREAM,
					"the downstream's " + held.threads().getAsInt() + " threads", new Model(held.threads().getAsInt(),
							"downstream threads", held.meanServiceTime(), "the downstream's hold"))));
		return bounds;
	}

	private static String usersText(int users) {
		return (users == 1) ? "1 user" : users + " users";
	}

	/** Whether the steps saw {@code inUse} above zero: the route uses that resource. */
	private boolean inUse(GaugeTimeline gauges, Gauge inUse) {
		return this.atCap.stream().anyMatch((s) -> s.service().max(inUse).orElse(0) >= 1)
				|| gauges.max(inUse).orElse(0) >= 1;
	}

	private Verdict verdict() {
		if (this.step.result().generatorSaturated()) {
			return new Verdict.GeneratorBound(this.step.throughput(), this.step.users(),
					this.step.result().generatorBusy());
		}
		if (!this.sweep.saturated()) {
			return new Verdict.NoCap(this.step.users(), this.step.throughput(), this.w1, seen(this.step));
		}
		List<Capped> candidates = new ArrayList<>();
		for (Function<Attribution, Optional<Capped>> rule : List.<Function<Attribution, Optional<Capped>>>of(
				Attribution::hikari, Attribution::hikariFromDump, Attribution::httpClient,
				Attribution::httpClientFromDump, Attribution::reactorNetty, Attribution::tomcatThreads,
				Attribution::workerPoolFromDump, Attribution::carriers, Attribution::lock, Attribution::downstream,
				Attribution::connectionPool, Attribution::cpu)) {
			Optional<Capped> verdict = rule.apply(this);
			if (verdict.isEmpty()) {
				continue;
			}
			// A resource is the cap only when its model explains the ceiling: a pool full
			// at moments, whose model allows far more than was measured, is a candidate.
			if (verdict.get().modelError() > MODEL_AGREEMENT) {
				candidates.add(verdict.get());
				continue;
			}
			return agreeing(verdict.get());
		}
		Map<String, String> readings = seen(this.step);
		return new Verdict.Unexplained(this.ceiling, this.kneeUsers, candidates, this.blind, readings);
	}

	/**
	 * A library's pool named from its meters or its frames, with what the service's TCP
	 * connections said of the same pool beside it: the two must agree.
	 */
	private Capped agreeing(Capped verdict) {
		if (!List.of(Resource.HIKARI_POOL, Resource.HTTP_CLIENT_POOL, Resource.REACTOR_NETTY_POOL)
			.contains(verdict.resource())) {
			return verdict;
		}
		Optional<OutboundConnections.Destination> same = flatDestinations().stream()
			.filter((destination) -> destination.max() == (int) verdict.model().limit())
			.findFirst();
		if (same.isEmpty()) {
			return verdict;
		}
		Map<String, String> readings = new LinkedHashMap<>(verdict.readings());
		readings.put("TCP connections", same.get().name() + " flat at " + same.get().max() + ": agrees");
		return new Capped(verdict.resource(), verdict.ceilingRps(), verdict.fromUsers(), verdict.saw(), verdict.model(),
				Optional.of(same.get().name()), readings);
	}

	private Optional<Capped> hikari() {
		return pool(this.step.service(), Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING).map((pool) -> {
			Optional<Duration> use = this.step.service().meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES);
			return capped(Resource.HIKARI_POOL,
					String.format(Locale.ROOT, "Hikari pool %d/%d active, %d pending", pool.inUse, pool.limit,
							pool.pending),
					new Model(pool.limit, "connections", use.orElse(this.w1), use.isPresent() ? "a use" : "W₁"),
					Optional.empty(), pool.readings());
		});
	}

	private Optional<Capped> httpClient() {
		return pool(this.step.service(), Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_MAX_PER_ROUTE, Gauge.HTTP_POOL_PENDING)
			.map((pool) -> capped(Resource.HTTP_CLIENT_POOL,
					String.format(Locale.ROOT, "HttpClient pool %d/%d leased (per route), %d pending", pool.inUse,
							pool.limit, pool.pending),
					new Model(pool.limit, "connections", this.w1, "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * The HttpClient 5 pool of a service that publishes no pool metrics (Spring Boot
	 * binds none), read from thread dumps: request threads parked in the pool's lease
	 * wait for a connection, while those inside {@code MainClientExec} hold one.
	 */
	private Optional<Capped> httpClientFromDump() {
		return pooledFromDump(HTTP_CLIENT_WAITING, HTTP_CLIENT_HOLDING, HTTP_CLIENT_PASSING)
			.map((pool) -> capped(Resource.HTTP_CLIENT_POOL, String.format(Locale.ROOT,
					"HttpClient pool (from a thread dump) %d request threads hold a connection, %d wait in its lease",
					pool.inUse, pool.pending), new Model(pool.limit, "connections", this.w1, "W₁"), Optional.empty(),
					pool.readings()));
	}

	/**
	 * Hikari without its meters, from thread dumps: request threads in
	 * {@code HikariPool.getConnection} parked in {@code ConcurrentBag.borrow} wait for a
	 * connection; those using a Hikari proxy hold one.
	 */
	private Optional<Capped> hikariFromDump() {
		return pooledFromDump(HIKARI_WAITING, HIKARI_HOLDING, HIKARI_PASSING).map((pool) -> capped(Resource.HIKARI_POOL,
				String.format(Locale.ROOT,
						"Hikari pool (from a thread dump) %d request threads hold a connection, %d wait in its borrow",
						pool.inUse, pool.pending),
				new Model(pool.limit, "connections", this.w1, "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * A pool read from the steps' thread dumps: its limit is the number of request
	 * threads holding a connection that most dumps agree on, among the dumps where others
	 * waited for one (the pool full), the larger on a tie; the last step's dumps must
	 * show some waiting. A dump is taken thread by thread, not at one instant: a
	 * connection handed on while it is written can be counted twice (its old holder
	 * before, its new one after) or not at all, and a thread taking or handing back a
	 * connection is no holder. The most of several dumps would keep such a miscount; what
	 * most of them say does not (the sweep takes three dumps in a step whose first shows
	 * a pool's waiters). Empty when no dump shows the pool full.
	 */
	private Optional<Pool> pooledFromDump(List<String> waitingFrames, List<String> holdingFrames,
			List<String> passingFrames) {
		Map<Integer, List<String>> dumpsByHolders = new TreeMap<>();
		int pending = 0;
		boolean lastWaits = false;
		for (Step each : this.sweep.steps()) {
			for (ThreadDump dump : each.threads()) {
				int waiting = waiting(dump, waitingFrames);
				int holding = (int) dump.matching(Attribution::servesARequest)
					.stream()
					.filter((thread) -> passingFrames.stream().noneMatch(thread::hasFrame))
					.filter((thread) -> holdingFrames.stream().anyMatch(thread::hasFrame))
					.count();
				if (waiting < 1 || holding < 1) {
					continue;
				}
				lastWaits |= each == this.step;
				dumpsByHolders.computeIfAbsent(holding, (count) -> new ArrayList<>())
					.add(String.valueOf(dump.file().getFileName()));
				pending = Math.max(pending, waiting);
			}
		}
		if (!lastWaits) {
			return Optional.empty();
		}
		Map.Entry<Integer, List<String>> agreed = dumpsByHolders.entrySet()
			.stream()
			.max(Comparator.<Map.Entry<Integer, List<String>>>comparingInt((entry) -> entry.getValue().size())
				.thenComparing(Map.Entry::getKey))
			.orElseThrow();
		int full = dumpsByHolders.values().stream().mapToInt(List::size).sum();
		String counted = String.format(Locale.ROOT, "%d in %d of %d dumps with waiters%s (e.g. %s)", agreed.getKey(),
				agreed.getValue().size(), full, seenOtherwise(dumpsByHolders, agreed.getKey()),
				agreed.getValue().get(0));
		return Optional.of(new Pool("request threads holding a connection", agreed.getKey(), agreed.getKey(), pending,
				Map.of("holders by thread dump", counted)));
	}

	/** "; 6 in 1" when dumps with waiters counted other numbers of holders. */
	private static String seenOtherwise(Map<Integer, List<String>> dumpsByHolders, int agreed) {
		String others = dumpsByHolders.entrySet()
			.stream()
			.filter((entry) -> entry.getKey() != agreed)
			.map((entry) -> entry.getKey() + " in " + entry.getValue().size())
			.collect(Collectors.joining(", "));
		return others.isEmpty() ? "" : "; " + others;
	}

	private static int waiting(ThreadDump dump, List<String> waitingFrames) {
		return dump.matching((thread) -> servesARequest(thread) && waitingFrames.stream().allMatch(thread::hasFrame))
			.size();
	}

	/**
	 * Whether request threads in {@code dump} wait for a pooled connection (HttpClient
	 * 5's lease, Hikari's borrow): the pool is full, and counting its holders takes more
	 * than one dump.
	 */
	static boolean waitsForAPooledConnection(ThreadDump dump) {
		return waiting(dump, HTTP_CLIENT_WAITING) > 0 || waiting(dump, HIKARI_WAITING) > 0;
	}

	/**
	 * Whether a web server's worker pool in {@code dump} has every thread serving and
	 * none idle: its size is the most threads seen serving at once, and a dump taken
	 * thread by thread can catch one of them between two requests, so it takes more than
	 * one dump to count it.
	 */
	static boolean showsABusyWorkerPool(ThreadDump dump) {
		return workerPools(dump).stream().anyMatch((pool) -> pool.idle() == 0);
	}

	/**
	 * A web server's worker pool as one dump shows it: its name without the thread
	 * number, its threads serving a request and how many of its threads wait idle in its
	 * queue.
	 */
	private record WorkerPool(String name, List<DumpedThread> serving, long idle) {

	}

	/** The worker pools of {@code dump} with at least one thread serving a request. */
	private static List<WorkerPool> workerPools(ThreadDump dump) {
		Map<String, List<DumpedThread>> serving = dump.matching(Attribution::servesARequest)
			.stream()
			.filter((thread) -> !poolOf(thread).isEmpty())
			.collect(Collectors.groupingBy(Attribution::poolOf, LinkedHashMap::new, Collectors.toList()));
		return serving.entrySet()
			.stream()
			.map((pool) -> new WorkerPool(pool.getKey(), pool.getValue(),
					dump.matching((thread) -> poolOf(thread).equals(pool.getKey())
							&& IDLE_WORKER_FRAMES.stream().anyMatch(thread::hasFrame))
						.size()))
			.toList();
	}

	private Optional<Capped> reactorNetty() {
		return pool(this.step.service(), Gauge.REACTOR_ACTIVE, Gauge.REACTOR_MAX, Gauge.REACTOR_PENDING)
			.map((pool) -> capped(Resource.REACTOR_NETTY_POOL,
					String.format(Locale.ROOT, "Reactor Netty pool %d/%d active, %d pending", pool.inUse, pool.limit,
							pool.pending),
					new Model(pool.limit, "connections", this.w1, "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * A client pool of any library, from the service's TCP connections: the connections
	 * to one destination opened as the users grew, then held flat at N through the steps
	 * at the cap while their users doubled past N, so requests waited for them. Its model
	 * is N / W₁ (a request holds a connection at most its whole latency). Of several such
	 * destinations, the one whose model lies nearest the ceiling.
	 */
	private Optional<Capped> connectionPool() {
		return flatDestinations().stream().map((destination) -> {
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("connections to " + destination.name(), destination.max() + " in every reading of the last "
					+ this.atCap.size() + " steps (" + destination.readings() + " readings in the last)");
			readings.put("users of the last step", Integer.toString(this.step.users()));
			return capped(Resource.CONNECTION_POOL,
					String.format(Locale.ROOT, "connection pool to %s: %d connections (TCP), flat while users doubled",
							destination.name(), destination.max()),
					new Model(destination.max(), "connections", this.w1, "W₁"), Optional.of(destination.name()),
					readings);
		}).min(Comparator.comparingDouble(Capped::modelError));
	}

	/**
	 * Destinations whose connections stayed at one number N ≥ 1 in every reading of the
	 * steps at the cap, fewer than the last step's users.
	 */
	private List<OutboundConnections.Destination> flatDestinations() {
		if (this.atCap.size() < 2 || this.atCap.stream().anyMatch((s) -> s.connections().isEmpty())) {
			return List.of();
		}
		List<OutboundConnections.Destination> flat = new ArrayList<>();
		for (OutboundConnections.Destination last : this.step.connections()) {
			// Opened as the load grew, then flat: a pool kept full while idle (Hikari's
			// minimumIdle) is flat from the first step and says nothing of the load.
			boolean grew = this.sweep.steps()
				.stream()
				.filter((s) -> s.users() < this.kneeUsers)
				.filter((s) -> !s.connections().isEmpty())
				.anyMatch((s) -> s.connections()
					.stream()
					.noneMatch((d) -> d.address().equals(last.address()) && d.max() >= last.max()));
			boolean steady = grew && last.readings() >= 2 && last.min() == last.max() && last.max() >= 1
					&& last.max() < this.step.users();
			for (Step each : this.atCap) {
				steady &= each.connections()
					.stream()
					.anyMatch((d) -> d.address().equals(last.address()) && d.min() == last.max()
							&& d.max() == last.max());
			}
			if (steady) {
				flat.add(last);
			}
		}
		return flat;
	}

	private Optional<Capped> tomcatThreads() {
		return threadPool(this.step.service()).map((pool) -> capped(Resource.TOMCAT_THREADS,
				String.format(Locale.ROOT, "Tomcat threads %d/%d busy", pool.inUse, pool.limit),
				new Model(pool.limit, "threads", this.w1, "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * A web server's worker pool from thread dumps, for Tomcat without its MBean
	 * registry, Jetty and Undertow: in a dump of the last step every thread of the pool
	 * (by name, {@code http-nio-8080-exec-}, {@code qtp…-}, {@code XNIO-1 task-}) that is
	 * not accepting or selecting serves a request and none is idle in the pool's queue.
	 * Its size is the most threads of the pool seen serving at once.
	 */
	private Optional<Capped> workerPoolFromDump() {
		// Every dump of the steps at the cap, the last first: a dump is taken thread by
		// thread, and a worker between two requests can read idle in one of them.
		List<ThreadDump> dumps = new ArrayList<>();
		for (int i = this.atCap.size() - 1; i >= 0; i--) {
			dumps.addAll(this.atCap.get(i).threads().reversed());
		}
		for (ThreadDump dump : dumps) {
			for (WorkerPool pool : workerPools(dump)) {
				int busy = pool.serving().size();
				int mostSeen = this.sweep.steps()
					.stream()
					.flatMap((s) -> s.threads().stream())
					.mapToInt((other) -> other
						.matching((thread) -> servesARequest(thread) && poolOf(thread).equals(pool.name()))
						.size())
					.max()
					.orElse(busy);
				if (pool.idle() > 0 || busy < mostSeen || busy < 1 || busy >= this.step.users()) {
					continue;
				}
				Resource resource = pool.serving().get(0).hasFrame("org.eclipse.jetty") ? Resource.JETTY_THREADS
						: pool.serving().get(0).hasFrame("io.undertow") ? Resource.UNDERTOW_THREADS
								: Resource.TOMCAT_THREADS;
				Map<String, String> readings = new LinkedHashMap<>();
				readings.put("pool " + pool.name() + "*",
						busy + " serving, 0 idle (thread dump " + dump.file().getFileName() + ")");
				return Optional.of(capped(resource,
						String.format(Locale.ROOT, "%s (from a thread dump) %d of %d %s* threads serving, none idle",
								serverName(resource), busy, busy, pool.name()),
						new Model(busy, "threads", this.w1, "W₁"), Optional.empty(), readings));
			}
		}
		return Optional.empty();
	}

	private static String serverName(Resource resource) {
		return switch (resource) {
			case JETTY_THREADS -> "Jetty worker pool";
			case UNDERTOW_THREADS -> "Undertow worker pool";
			default -> "Tomcat thread pool";
		};
	}

	/**
	 * The pool a platform thread belongs to by its name without its number
	 * ({@code http-nio-8080-exec-7} → {@code http-nio-8080-exec-}); empty for a virtual
	 * or unnamed thread.
	 */
	static String poolOf(DumpedThread thread) {
		String name = thread.name();
		if (thread.virtual() || name.isEmpty() || !Character.isDigit(name.charAt(name.length() - 1))) {
			return "";
		}
		int end = name.length();
		while (end > 0 && Character.isDigit(name.charAt(end - 1))) {
			end--;
		}
		return name.substring(0, end);
	}

	/**
	 * Carriers held by pinned virtual threads. The utilization law on the step: pinned
	 * time per request P (the step's pinned time over its requests) against the JVM's
	 * carriers C: at most C / P requests a second.
	 */
	private Optional<Capped> carriers() {
		List<PinnedEvent> pinned = this.step.pinned();
		if (pinned.isEmpty()) {
			return Optional.empty();
		}
		Duration total = this.step.pinnedTime();
		double heldAtOnce = total.toNanos() / (double) this.step.wall().toNanos();
		long requests = requests(this.step);
		if (heldAtOnce < PINNED_CARRIERS || requests == 0) {
			return Optional.empty();
		}
		int carriers = this.step.carriers().orElse((int) Math.max(1, Math.round(heldAtOnce)));
		Duration pinnedPerRequest = total.dividedBy(requests);
		Duration cpuPerRequest = onCarriersPerRequest(this.step, carriers);
		Duration each = total.dividedBy(pinned.size());
		Map.Entry<String, Long> culprit = pinned.stream()
			.collect(Collectors.groupingBy(PinnedEvent::culprit, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElseThrow();
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("pinned events", pinned.size() + " in the " + this.step.users() + "-user step");
		readings.put("pinned each", String.format(Locale.ROOT, "%.1f ms on average", each.toNanos() / 1e6));
		readings.put("pinned per request",
				String.format(Locale.ROOT, "%.1f ms (%d requests)", pinnedPerRequest.toNanos() / 1e6, requests));
		readings.put("on a carrier per request",
				String.format(Locale.ROOT, "%.1f ms pinned + %.1f ms on the CPU%s", pinnedPerRequest.toNanos() / 1e6,
						cpuPerRequest.toNanos() / 1e6,
						this.step.carrierCores().isPresent() ? " (read from the carrier threads)" : ""));
		readings.put("carriers held at once", String.format(Locale.ROOT, "%.2f of %d", heldAtOnce, carriers));
		readings.put("culprit", culprit.getKey() + " ×" + culprit.getValue());
		pinned.stream()
			.map(PinnedEvent::pinnedReason)
			.flatMap(Optional::stream)
			.findFirst()
			.ifPresent((reason) -> readings.put("pinned reason", reason));
		return Optional.of(capped(Resource.CARRIER_THREADS,
				String.format(Locale.ROOT, "%d pinned events of %.1f ms, %.2f of %d carriers held at once, culprit %s",
						pinned.size(), each.toNanos() / 1e6, heldAtOnce, carriers, culprit.getKey()),
				carriersModel(this.step, carriers, pinnedPerRequest), Optional.of(culprit.getKey()), readings));
	}

	/**
	 * A crowd at one lock: most request threads of a dump of the last step wait for a
	 * lock taken in one place (threads waiting for their own answers, in {@code block()}
	 * or {@code Future.get}, do not count). One holder at a time, so the utilization law
	 * gives its hold S = U / X: U the share of the dumps at the cap in which the lock was
	 * busy (someone waiting for it, or holding it), X the step's throughput; and the
	 * model 1 / S. A dump is taken thread by thread, not at one instant, so a holder is
	 * often missed while a hand-off is under way; a queue is seen whole, and a lock with
	 * a queue is busy.
	 */
	private Optional<Capped> lock() {
		return crowdedLock().map((crowd) -> {
			double busy = crowd.busyDumps / (double) crowd.dumps;
			Duration hold = Duration.ofNanos(Math.round(busy / this.step.throughput() * 1e9));
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("request threads waiting for the lock",
					crowd.waiting + " of " + crowd.serving + " (thread dump " + crowd.file + ")");
			readings.put("lock busy",
					String.format(Locale.ROOT, "in %d of %d dumps at the cap", crowd.busyDumps, crowd.dumps));
			readings.put("lock taken in", crowd.site);
			return capped(Resource.LOCK,
					String.format(Locale.ROOT, "%d of %d request threads wait for a lock taken in %s", crowd.waiting,
							crowd.serving, crowd.site),
					new Model(1, "holder", hold, "busy share / throughput"), Optional.of(crowd.site), readings);
		});
	}

	private Optional<Crowd> crowdedLock() {
		Optional<ThreadDump> dump = this.step.lastDump();
		if (dump.isEmpty()) {
			return Optional.empty();
		}
		List<DumpedThread> serving = dump.get().matching(Attribution::servesARequest);
		Optional<Map.Entry<String, Long>> crowd = serving.stream()
			.map(DumpedThread::lockTakenIn)
			.flatMap(Optional::stream)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue());
		if (serving.isEmpty() || crowd.isEmpty() || crowd.get().getValue() < 2
				|| crowd.get().getValue() < LOCK_CROWD * serving.size()) {
			return Optional.empty();
		}
		String site = crowd.get().getKey();
		int dumps = 0;
		int busy = 0;
		for (Step each : this.atCap) {
			for (ThreadDump taken : each.threads()) {
				dumps++;
				boolean waited = !taken.matching((thread) -> thread.lockTakenIn().filter(site::equals).isPresent())
					.isEmpty();
				boolean held = !taken
					.matching((thread) -> !thread.waitsForLock()
							&& thread.frames().stream().anyMatch((frame) -> frame.equals(site)))
					.isEmpty();
				busy += (waited || held) ? 1 : 0;
			}
		}
		return Optional.of(new Crowd(site, crowd.get().getValue().intValue(), serving.size(), busy, dumps,
				String.valueOf(dump.get().file().getFileName())));
	}

	/**
	 * CPU. A service with a CPU limit of its own: its container at that limit. Without
	 * one: the machine's cores busy, whoever uses them (the service, its database and
	 * proxies, the load generator), with the split. The utilization law on the step that
	 * measured the ceiling: CPU per request S = cores used × step time / requests, and
	 * the model cores / S.
	 */
	private Optional<Capped> cpu() {
		Optional<Step> limited = saturatedCpuStep(true);
		if (limited.isPresent()) {
			MachineCpu.Use use = limited.get().cpu().orElseThrow();
			Duration perRequest = perRequest(use.service(), limited.get());
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("cores used",
					String.format(Locale.ROOT, "%.2f of %s", use.service(), Verdict.count(use.serviceLimit())));
			readings.put("CPU per request", cpuPerRequest(perRequest, limited.get()));
			return Optional.of(capped(Resource.CPU,
					String.format(Locale.ROOT, "the service used %.2f of its %s CPU with %s", use.service(),
							Verdict.count(use.serviceLimit()), usersText(limited.get().users())),
					new Model(use.serviceLimit(), "cores", perRequest, "CPU per request"), Optional.of("service"),
					readings));
		}
		Optional<Step> machine = saturatedCpuStep(false);
		if (machine.isEmpty()) {
			return Optional.empty();
		}
		MachineCpu.Use use = machine.get().cpu().orElseThrow();
		// The utilization law on the test's own CPU: the cores other processes left it,
		// over what the service, its neighbours and the load generator spent a request.
		// Another process's load bends no model: it lowers the cores, not the demand.
		double available = use.machineCores() - use.others();
		Duration perRequest = perRequest(use.machineUsed() - use.others(), machine.get());
		if (!(available > 0) || perRequest.isZero()) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("machine cores used",
				String.format(Locale.ROOT, "%.2f of %s", use.machineUsed(), Verdict.count(use.machineCores())));
		readings.put("split", split(use));
		readings.put("CPU per request",
				cpuPerRequest(perRequest, machine.get()) + " (service, its neighbours and the load generator)");
		String generatorNote = (use.generator() >= GENERATOR_NOTE * use.machineCores())
				? String.format(Locale.ROOT,
						"; the load generator took %.0f %% of the machine, so the service alone"
								+ " would go further on a machine of its own",
						100 * use.generator() / use.machineCores())
				: "";
		if (!generatorNote.isEmpty()) {
			readings.put("load generator", generatorNote.substring(2));
		}
		return Optional.of(capped(Resource.CPU,
				String.format(Locale.ROOT, "the machine's %s cores were busy with %s: %s%s",
						Verdict.count(use.machineCores()), usersText(machine.get().users()), split(use), generatorNote),
				new Model(available, "cores", perRequest, "CPU per request"), Optional.of("machine"), readings));
	}

	/**
	 * Of the steps at the cap, the one with the highest throughput whose service
	 * container ({@code limited}) or machine was at its cores.
	 */
	private Optional<Step> saturatedCpuStep(boolean limited) {
		return this.atCap.stream().filter((s) -> s.cpu().isPresent()).filter((s) -> {
			MachineCpu.Use use = s.cpu().get();
			boolean machineFull = use.machineUsed() >= CPU_SATURATED * use.machineCores();
			return limited
					? use.serviceLimited() && use.service() >= CPU_SATURATED * use.serviceLimit()
							&& !(machineFull && machineFuller(use))
					: machineFull && (!use.serviceLimited() || machineFuller(use));
		}).max(Comparator.comparingDouble(Step::throughput));
	}

	/**
	 * The machine's cores fuller than the service's CPU limit: a service short of its
	 * limit on a machine with no core to spare (0.93 of its 1 CPU, the machine's 2 cores
	 * 1.99 busy with a busy loop on one) is capped by the cores the others left it, not
	 * by its limit.
	 */
	private static boolean machineFuller(MachineCpu.Use use) {
		return use.machineUsed() / use.machineCores() > use.service() / use.serviceLimit();
	}

	/** "service 1.62, mysql 0.21, load generator 0.14, toxiproxy 0.05" */
	static String split(MachineCpu.Use use) {
		Map<String, Double> parts = new LinkedHashMap<>();
		parts.put("service", use.service());
		use.downstream().ifPresent((cores) -> parts.put("downstream", cores));
		parts.putAll(use.neighbours());
		parts.put("load generator", use.generator());
		if (use.others() >= 0.01) {
			parts.put("other processes", use.others());
		}
		return parts.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
			.filter((part) -> part.getValue() >= 0.01)
			.map((part) -> String.format(Locale.ROOT, "%s %.2f", part.getKey(), part.getValue()))
			.collect(Collectors.joining(", "));
	}

	/**
	 * What a request of {@code step} held a carrier beside its pins: a carrier is taken
	 * while a virtual thread is mounted, blocked while pinned, or running on the CPU, or
	 * runnable and waiting for a core. What the carriers did is read from their threads
	 * (on a core or waiting, from the host's /proc; their CPU over JMX on a remote
	 * engine); where they were not read, the service's whole CPU (its compilers,
	 * collectors and Tomcat's poller too) stands in.
	 */
	private static Duration onCarriersPerRequest(Step step, int carriers) {
		OptionalDouble onCarriers = step.carrierCores().isPresent() ? step.carrierCores()
				: step.cpu().map((use) -> OptionalDouble.of(use.service())).orElse(OptionalDouble.empty());
		return onCarriers.isPresent() ? perRequest(Math.min(onCarriers.getAsDouble(), carriers), step) : Duration.ZERO;
	}

	/**
	 * The carriers' ceiling as {@code step} read it: its carriers over what a request
	 * held one, pinned or mounted beside its pins; empty without pins, carriers or
	 * requests.
	 */
	static Optional<Verdict.Bound> carriersAsRead(Step step) {
		long requests = requests(step);
		if (step.pinned().isEmpty() || requests == 0 || step.carriers().isEmpty()) {
			return Optional.empty();
		}
		int carriers = step.carriers().getAsInt();
		return Optional.of(new Verdict.Bound(Resource.CARRIER_THREADS, carriers + " carriers",
				carriersModel(step, carriers, step.pinnedTime().dividedBy(requests))));
	}

	/** {@code carriers} over a request's pins and its other time on a carrier. */
	private static Model carriersModel(Step step, int carriers, Duration pinnedPerRequest) {
		return new Model(carriers, "carriers", pinnedPerRequest.plus(onCarriersPerRequest(step, carriers)),
				"pinned or on the CPU per request");
	}

	private static Duration perRequest(double cores, Step step) {
		return Duration.ofNanos(Math.round(cores * step.wall().toNanos() / Math.max(1, requests(step))));
	}

	private static String cpuPerRequest(Duration perRequest, Step step) {
		return String.format(Locale.ROOT, "%.1f ms, %d requests in the %d-user step", perRequest.toNanos() / 1e6,
				requests(step), step.users());
	}

	/**
	 * Requests that ended in the step, warm-up included, as the CPU and the pins were
	 * read over it all; the window's when the step kept no timeline.
	 */
	private static long requests(Step step) {
		return step.result().timeline().isEmpty() ? step.result().completed()
				: step.result().timeline().stream().mapToLong((second) -> second.succeeded() + second.failed()).sum();
	}

	private Optional<Capped> downstream() {
		Optional<DownstreamContainer.InFlight> standIn = this.step.standIn()
			.filter(DownstreamContainer.InFlight::threadsFull);
		if (standIn.isPresent() && this.step.users() > standIn.get().peak()
				&& standIn.get().meanServiceTime().toNanos() > 0) {
			DownstreamContainer.InFlight held = standIn.get();
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream in flight max", held.peak() + " of " + held.threads().getAsInt() + " threads");
			readings.put("downstream completed", Long.toString(held.completed()));
			return Optional.of(capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's %d threads all held a request",
							held.threads().getAsInt()),
					new Model(held.threads().getAsInt(), "downstream threads", held.meanServiceTime(),
							"the downstream's hold"),
					Optional.of("downstream"), readings));
		}
		GaugeTimeline gauges = this.step.downstream();
		Optional<Pool> threads = threadPool(gauges);
		if (threads.isPresent()) {
			Pool pool = threads.get();
			return Optional
				.of(capped(Resource.DOWNSTREAM,
						String.format(Locale.ROOT, "the downstream's Tomcat threads %d/%d busy", pool.inUse,
								pool.limit),
						new Model(pool.limit, "downstream threads", this.w1, "W₁"), Optional.of("downstream"),
						pool.readings()));
		}
		Optional<Pool> hikari = pool(gauges, Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING);
		if (hikari.isPresent()) {
			Pool pool = hikari.get();
			return Optional.of(capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's Hikari pool %d/%d active, %d pending", pool.inUse,
							pool.limit, pool.pending),
					new Model(pool.limit, "downstream connections", this.w1, "W₁"), Optional.of("downstream"),
					pool.readings()));
		}
		Optional<Step> busy = this.atCap.stream()
			.filter((s) -> s.cpu().flatMap(MachineCpu.Use::downstream).isPresent())
			.filter((s) -> s.cpu().get().downstream().get() >= CPU_SATURATED * s.cpu().get().downstreamLimit())
			.max(Comparator.comparingDouble(Step::throughput));
		if (busy.isPresent()) {
			MachineCpu.Use use = busy.get().cpu().get();
			double cores = use.downstream().get();
			Duration perRequest = perRequest(cores, busy.get());
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream cores used",
					String.format(Locale.ROOT, "%.2f of %s", cores, Verdict.count(use.downstreamLimit())));
			readings.put("downstream CPU per request", cpuPerRequest(perRequest, busy.get()));
			return Optional.of(capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream used %.2f of its %s CPU", cores,
							Verdict.count(use.downstreamLimit())),
					new Model(use.downstreamLimit(), "downstream cores", perRequest, "CPU per request"),
					Optional.of("downstream"), readings));
		}
		return Optional.empty();
	}

	private Capped capped(Resource resource, String saw, Model model, Optional<String> where,
			Map<String, String> readings) {
		Map<String, String> all = new LinkedHashMap<>(readings);
		all.put("W (" + model.holdIs() + ")", String.format(Locale.ROOT, "%.1f ms", model.hold().toNanos() / 1e6));
		return new Capped(resource, this.ceiling, this.kneeUsers, saw, model, where, all);
	}

	/**
	 * A pool at its limit with work pending for it, from its in-use, limit and pending
	 * gauges.
	 */
	private static Optional<Pool> pool(GaugeTimeline gauges, Gauge inUse, Gauge limit, Gauge pending) {
		OptionalDouble used = gauges.max(inUse);
		OptionalDouble max = gauges.max(limit);
		OptionalDouble waiting = gauges.max(pending);
		if (used.isEmpty() || max.isEmpty() || max.getAsDouble() < 1 || used.getAsDouble() < max.getAsDouble()) {
			return Optional.empty();
		}
		// Work waits when a reading saw it pending, or when the pool was full in nearly
		// every reading: with few requests beyond the pool (a thread pool in front of it
		// lets two more in) a quarter-second sampler can miss the pending ones.
		boolean pendingSeen = waiting.isPresent() && waiting.getAsDouble() >= 1;
		if (!pendingSeen && fullShare(gauges, inUse, max.getAsDouble()) < ALWAYS_FULL) {
			return Optional.empty();
		}
		return Optional.of(new Pool(inUse.label(), (int) Math.round(used.getAsDouble()),
				(int) Math.round(max.getAsDouble()), (int) Math.round(waiting.orElse(0))));
	}

	/** A pool full in at least this share of the step's readings is full all the time. */
	static final double ALWAYS_FULL = 0.8;

	/**
	 * The share of {@code gauge}'s readings at {@code limit} or above, after the first.
	 */
	private static double fullShare(GaugeTimeline gauges, Gauge gauge, double limit) {
		List<GaugeTimeline.Sample> samples = gauges.series().getOrDefault(gauge.label(), List.of());
		if (samples.size() < 4) {
			return 0;
		}
		// The first reading falls in the step's warm-up, before the users are all in.
		List<GaugeTimeline.Sample> after = samples.subList(1, samples.size());
		return after.stream().filter((sample) -> sample.value() >= limit).count() / (double) after.size();
	}

	/** Tomcat's platform threads all busy, from its meters. */
	private static Optional<Pool> threadPool(GaugeTimeline gauges) {
		OptionalDouble busy = gauges.max(Gauge.TOMCAT_BUSY);
		OptionalDouble max = gauges.max(Gauge.TOMCAT_MAX);
		if (busy.isEmpty() || max.isEmpty() || busy.getAsDouble() < 1 || busy.getAsDouble() < max.getAsDouble()) {
			return Optional.empty();
		}
		int connections = (int) Math.round(gauges.max(Gauge.TOMCAT_CONNECTIONS).orElse(0));
		return Optional.of(new Pool(Gauge.TOMCAT_BUSY.label(), (int) Math.round(busy.getAsDouble()),
				(int) Math.round(max.getAsDouble()), Math.max(0, connections - (int) Math.round(max.getAsDouble()))));
	}

	static boolean servesARequest(DumpedThread thread) {
		return REQUEST_FRAMES.stream().anyMatch(thread::hasFrame);
	}

	/** What the probes read in {@code step}: gauge maxima, CPU, connections, pins. */
	private static Map<String, String> seen(Step step) {
		Map<String, String> seen = new LinkedHashMap<>(step.service().maxima());
		step.downstream().maxima().forEach((key, value) -> seen.put("downstream " + key, value));
		step.cpu().ifPresent((use) -> {
			seen.put("cores used",
					String.format(Locale.ROOT, "service %.2f of %s", use.service(), Verdict.count(use.serviceLimit())));
			seen.put("machine", String.format(Locale.ROOT, "%.2f of %s cores: %s", use.machineUsed(),
					Verdict.count(use.machineCores()), split(use)));
		});
		if (!step.connections().isEmpty()) {
			seen.put("connections",
					step.connections()
						.stream()
						.limit(5)
						.map(OutboundConnections.Destination::toString)
						.collect(Collectors.joining(", ")));
		}
		if (!step.pinned().isEmpty()) {
			seen.put("pinned events", Integer.toString(step.pinned().size()));
		}
		if (!step.result().errors().isEmpty()) {
			seen.put("errors", step.result().errors().toString());
		}
		return seen;
	}

	/**
	 * A lock with a crowd of request threads waiting for it in a dump of the last step,
	 * and in how many of the dumps at the cap it was busy.
	 */
	private record Crowd(String site, int waiting, int serving, int busyDumps, int dumps, String file) {
	}

	/**
	 * A pool's reading: what was in use at most, its limit, and how many waited at most.
	 */
	private record Pool(String label, int inUse, int limit, int pending, Map<String, String> more) {

		Pool(String label, int inUse, int limit, int pending) {
			this(label, inUse, limit, pending, Map.of());
		}

		Map<String, String> readings() {
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put(this.label + " max", this.inUse + " of " + this.limit);
			readings.put("waiting max", Integer.toString(this.pending));
			readings.putAll(this.more);
			return readings;
		}

	}

}
