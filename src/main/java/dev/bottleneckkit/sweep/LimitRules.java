package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The rules for resources with a configured limit: a library's connection pool (Hikari,
 * HttpClient 5, Reactor Netty) from its meters or its threads' frames, any client's pool
 * from the service's TCP connections, and a web server's worker threads from Tomcat's
 * meters or any server's thread dumps. Each finds its resource at its limit with work
 * waiting and gives it Little's law: limit / hold.
 */
final class LimitRules {

	private LimitRules() {
	}

	static Optional<Capped> hikari(AtCap at) {
		return Pool.atItsLimit(at.last().service(), Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING)
			.map((pool) -> {
				Optional<PoolUses.Demand> demand = PoolUses.hikari(at.last(), pool.limit());
				String uses = demand.map(PoolUses.Demand::aRequest).orElse("");
				return at.capped(Resource.HIKARI_POOL,
						String.format(Locale.ROOT, "Hikari pool %d/%d active, %d pending%s", pool.inUse(), pool.limit(),
								pool.pending(), uses),
						demand.map(PoolUses.Demand::model)
							.orElseGet(() -> new Verdict.Model(pool.limit(), "connections", at.w1(), "W₁")),
						Optional.empty(), pool.readings());
			});
	}

	/**
	 * Agroal (Quarkus' datasource) from its meters: threads waited for a connection while
	 * the most connections in use reached their high-water mark. Agroal publishes no
	 * maximum size; a pool that made threads wait was at it.
	 */
	static Optional<Capped> agroal(AtCap at) {
		return Pool.agroal(at.last().service())
			.map((pool) -> at.capped(Resource.AGROAL_POOL,
					String.format(Locale.ROOT, "Agroal pool %d/%d active, %d awaiting", pool.inUse(), pool.limit(),
							pool.pending()),
					new Verdict.Model(pool.limit(), "connections", at.w1(), "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * Agroal without its meters (Quarkus binds them only with
	 * {@code quarkus.datasource.metrics.enabled=true}), from thread dumps: request
	 * threads parked in {@code ConnectionPool.getConnection} wait for a connection; those
	 * in Agroal's statement or connection wrappers hold one.
	 */
	static Optional<Capped> agroalFromDump(AtCap at) {
		return fromDump(at, AGROAL);
	}

	static Optional<Capped> httpClient(AtCap at) {
		return Pool
			.atItsLimit(at.last().service(), Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_MAX_PER_ROUTE,
					Gauge.HTTP_POOL_PENDING)
			.map((pool) -> at.capped(Resource.HTTP_CLIENT_POOL,
					String.format(Locale.ROOT, "HttpClient pool %d/%d leased (per route), %d pending", pool.inUse(),
							pool.limit(), pool.pending()),
					new Verdict.Model(pool.limit(), "connections", at.w1(), "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * The HttpClient 5 pool of a service that publishes no pool metrics (Spring Boot
	 * binds none), read from thread dumps: request threads parked in the pool's lease
	 * wait for a connection, while those inside {@code MainClientExec} hold one.
	 */
	static Optional<Capped> httpClientFromDump(AtCap at) {
		return fromDump(at, HTTP_CLIENT);
	}

	/**
	 * Hikari without its meters, from thread dumps: request threads in
	 * {@code HikariPool.getConnection} parked in {@code ConcurrentBag.borrow} wait for a
	 * connection; those using a Hikari proxy hold one.
	 */
	static Optional<Capped> hikariFromDump(AtCap at) {
		return fromDump(at, HIKARI);
	}

	/**
	 * A pool read from thread dumps where its meters are not published: what a verdict
	 * calls it and where its waiters wait, its frames
	 * ({@link ThreadDumps#pooledFromDump}), and which meters would have shown it and why
	 * they were not there.
	 */
	private record DumpedPool(Resource resource, String name, String waitsIn, List<String> waiting,
			List<String> holding, List<String> passing, String meters, String meterNames, String why) {

	}

	private static final DumpedPool AGROAL = new DumpedPool(Resource.AGROAL_POOL, "Agroal pool", "its getConnection",
			ThreadDumps.AGROAL_WAITING, ThreadDumps.AGROAL_HOLDING, ThreadDumps.AGROAL_PASSING, "Agroal's meters",
			"agroal.*", "Quarkus binds them with quarkus.datasource.metrics.enabled=true");

	private static final DumpedPool HTTP_CLIENT = new DumpedPool(Resource.HTTP_CLIENT_POOL, "HttpClient pool",
			"its lease", ThreadDumps.HTTP_CLIENT_WAITING, ThreadDumps.HTTP_CLIENT_HOLDING,
			ThreadDumps.HTTP_CLIENT_PASSING, "HttpClient 5's pool meters", "httpcomponents.httpclient.pool.*",
			"Spring Boot binds none; PoolingHttpClientConnectionManagerMetricsBinder on the connection manager does");

	private static final DumpedPool HIKARI = new DumpedPool(Resource.HIKARI_POOL, "Hikari pool", "its borrow",
			ThreadDumps.HIKARI_WAITING, ThreadDumps.HIKARI_HOLDING, ThreadDumps.HIKARI_PASSING, "Hikari's meters",
			"hikaricp.connections.*",
			"Spring Boot binds them to a HikariDataSource it created, not to one wrapped or built by hand");

	/**
	 * {@code pool} at its limit by what most of the steps' dumps say, modelled at W₁, and
	 * why its meters were not read.
	 */
	private static Optional<Capped> fromDump(AtCap at, DumpedPool pool) {
		return ThreadDumps
			.pooledFromDump(at.readings().steps(), at.last(), pool.waiting(), pool.holding(), pool.passing())
			.map((read) -> at.capped(pool.resource(),
					String.format(Locale.ROOT,
							"%s (from a thread dump) %d request threads hold a connection, %d wait in %s", pool.name(),
							read.inUse(), read.pending(), pool.waitsIn()),
					new Verdict.Model(read.limit(), "connections", at.w1(), "W₁"), Optional.empty(),
					withoutMeters(at, read.readings(), pool.meters(), pool.meterNames(), pool.why())));
	}

	/**
	 * A pool's readings from thread dumps, with why its meters were not read and what
	 * that costs the model: its hold is W₁, the request's latency at one user, where the
	 * pool's own meters would give how long a use holds a connection (a connection held
	 * for part of a request only makes a W₁ model read low).
	 */
	static Map<String, String> withoutMeters(AtCap at, Map<String, String> readings, String meters, String names,
			String why) {
		Map<String, String> all = new LinkedHashMap<>(readings);
		all.put("meters",
				at.readings()
					.meters()
					.map((where) -> meters + " (" + names + ") absent from " + where + ": " + why)
					.orElse("none read (see blind)") + "; the hold is W₁, the request's latency, not a use's");
		return all;
	}

	static Optional<Capped> reactorNetty(AtCap at) {
		return Pool.atItsLimit(at.last().service(), Gauge.REACTOR_ACTIVE, Gauge.REACTOR_MAX, Gauge.REACTOR_PENDING)
			.map((pool) -> at.capped(Resource.REACTOR_NETTY_POOL,
					String.format(Locale.ROOT, "Reactor Netty pool %d/%d active, %d pending", pool.inUse(),
							pool.limit(), pool.pending()),
					new Verdict.Model(pool.limit(), "connections", at.w1(), "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * A client pool of any library, from the service's TCP connections: the connections
	 * to one destination opened as the users grew, then held flat at N through the steps
	 * at the cap while their users doubled past N, so requests waited for them. Its model
	 * is N / W₁ (a request holds a connection at most its whole latency). Of several such
	 * destinations, the one whose model lies nearest the ceiling. None when the dumps
	 * show request threads waiting before the client ({@link Upstream}): a bulkhead, a
	 * rate limiter or a busy executor lets through as many calls as there are
	 * connections, and the connections follow that cap.
	 */
	static Optional<Capped> connectionPool(AtCap at) {
		if (at.upstream().isPresent()) {
			return Optional.empty();
		}
		return flatDestinations(at, true).stream().map((destination) -> {
			Map<String, String> readings = new LinkedHashMap<>();
			String carried = destination.inUse().isPresent() ? " carrying requests" : "";
			readings.put("connections to " + destination.name(),
					destination.counted() + carried + " in every step of the last " + at.atCap().size() + " ("
							+ destination.readings() + " readings in the last)");
			readings.put("users of the last step", Integer.toString(at.last().users()));
			return at.capped(Resource.CONNECTION_POOL,
					String.format(Locale.ROOT,
							"connection pool to %s: %d connections%s (TCP), flat while users doubled",
							destination.name(), destination.counted(), carried),
					new Verdict.Model(destination.counted(), "connections", at.w1(), "W₁"),
					Optional.of(destination.name()), readings);
		}).min(Comparator.comparingDouble(Capped::modelError));
	}

	/**
	 * Destinations whose connections stayed at one number N ≥ 1 in every reading of the
	 * steps at the cap, fewer than the last step's users; {@code grown}, only those
	 * opened as the users grew below the knee. Where the reader saw the connections'
	 * bytes, only those that carried a request count ({@link Step.Destination#counted}):
	 * an idle keep-alive connection, another client's, is no evidence of a pool.
	 */
	static List<Step.Destination> flatDestinations(AtCap at, boolean grown) {
		if (at.atCap().size() < 2 || at.atCap().stream().anyMatch((s) -> s.connections().isEmpty())) {
			return List.of();
		}
		List<Step.Destination> flat = new ArrayList<>();
		for (Step.Destination last : at.last().connections()) {
			// Opened as the load grew, then flat: a pool kept full while idle (Hikari's
			// minimumIdle) is flat from the first step and says nothing of the load.
			boolean grew = at.readings()
				.steps()
				.stream()
				.filter((s) -> s.users() < at.kneeUsers())
				.filter((s) -> !s.connections().isEmpty())
				.anyMatch((s) -> s.connections()
					.stream()
					.noneMatch((d) -> d.address().equals(last.address()) && d.counted() >= last.counted()));
			boolean steady = (grew || !grown) && last.readings() >= 2 && flat(last) && last.counted() >= 1
					&& last.counted() < at.last().users();
			for (Step each : at.atCap()) {
				steady &= each.connections()
					.stream()
					.anyMatch((d) -> d.address().equals(last.address()) && flat(d) && d.counted() == last.counted());
			}
			if (steady) {
				flat.add(last);
			}
		}
		return flat;
	}

	/**
	 * Whether a destination's count held within the step: its connections in use are one
	 * count a step; established ones must be as many in every reading.
	 */
	private static boolean flat(Step.Destination destination) {
		return destination.inUse().isPresent() || destination.min() == destination.max();
	}

	static Optional<Capped> tomcatThreads(AtCap at) {
		return Pool.tomcatThreads(at.last().service())
			.map((pool) -> at.capped(Resource.TOMCAT_THREADS,
					String.format(Locale.ROOT, "Tomcat threads %d/%d busy", pool.inUse(), pool.limit()),
					new Verdict.Model(pool.limit(), "threads", at.w1(), "W₁"), Optional.empty(), pool.readings()));
	}

	/**
	 * A web server's worker pool from thread dumps, for Tomcat without its MBean
	 * registry, Jetty and Undertow: in a dump of the last step every thread of the pool
	 * (by name, {@code http-nio-8080-exec-}, {@code qtp…-}, {@code XNIO-1 task-}) that is
	 * not accepting or selecting serves a request and none is idle in the pool's queue.
	 * Its size is what most dumps at the cap with none idle agree on, the larger on a
	 * tie: a dump is taken thread by thread, and a request handed from one thread to the
	 * next while it is written can be counted twice (a pool of 6 read as 7), or a worker
	 * between two requests not at all.
	 */
	static Optional<Capped> workerPoolFromDump(AtCap at, DumpedServer server) {
		// Every dump of the steps at the cap, the last first.
		List<ThreadDump> dumps = new ArrayList<>();
		for (int i = at.atCap().size() - 1; i >= 0; i--) {
			dumps.addAll(at.atCap().get(i).threads().reversed());
		}
		Map<String, Integer> sizes = agreedSizes(dumps);
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump)) {
				int busy = pool.serving().size();
				if (pool.idle() > 0 || busy != sizes.getOrDefault(pool.name(), 0) || busy >= at.last().users()
						|| !at.serverOf(pool).filter(server::equals).isPresent()) {
					continue;
				}
				Map<String, String> readings = new LinkedHashMap<>();
				readings.put("pool " + pool.name() + "*",
						busy + " serving, 0 idle (thread dump " + dump.file().getFileName() + ")");
				Optional<String> where = server.whereIsThePool() ? Optional.of(pool.name()) : Optional.empty();
				return Optional.of(at.capped(server.resource(),
						String.format(Locale.ROOT, "%s (from a thread dump) %d of %d %s* threads serving, none idle",
								server.words().apply(pool), busy, busy, pool.name()),
						new Verdict.Model(busy, "threads", at.w1(), "W₁"), where, readings));
			}
		}
		return Optional.empty();
	}

	/**
	 * Each worker pool's threads serving a request, as most of {@code dumps} with none of
	 * the pool's threads idle agree ({@link ThreadDumps#agreed}).
	 */
	static Map<String, Integer> agreedSizes(List<ThreadDump> dumps) {
		Map<String, Map<Integer, List<ThreadDump>>> dumpsBySize = new LinkedHashMap<>();
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump)) {
				if (pool.idle() == 0) {
					dumpsBySize.computeIfAbsent(pool.name(), (name) -> new TreeMap<>())
						.computeIfAbsent(pool.serving().size(), (size) -> new ArrayList<>())
						.add(dump);
				}
			}
		}
		Map<String, Integer> sizes = new LinkedHashMap<>();
		dumpsBySize.forEach(
				(name, bySize) -> ThreadDumps.agreed(bySize).ifPresent((agreed) -> sizes.put(name, agreed.getKey())));
		return sizes;
	}

}
