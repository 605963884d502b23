package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;

/**
 * Names the resource that saturated in a sweep, from what the probes read in its most
 * loaded step. Each rule looks for a resource at its limit with work waiting for it; the
 * first that holds gives the verdict, with Little's law for that resource
 * ({@code limit / W}) beside the measured ceiling. When none holds, the verdict is
 * {@link Resource#UNEXPLAINED} with what was seen: it never guesses.
 */
final class Attribution {

	/**
	 * A resource names the cap only when its model (limit / W) lies within this share of
	 * the measured ceiling; otherwise it is a candidate the verdict lists.
	 */
	static final double MODEL_AGREEMENT = 0.25;

	/** A container at this share of its CPU limit or more is CPU-bound. */
	static final double CPU_SATURATED = 0.85;

	/**
	 * A lock is the cap when at least this share of the request threads in a dump wait
	 * for it.
	 */
	static final double LOCK_CROWD = 0.5;

	/**
	 * Carriers count as the cap when pinned threads held at least this many of them on
	 * average.
	 */
	static final double PINNED_CARRIERS = 0.5;

	private static final List<String> REQUEST_FRAMES = List.of("org.apache.catalina.core.ApplicationFilterChain",
			"jakarta.servlet.http.HttpServlet.service", "org.eclipse.jetty.server.Server.handle",
			"io.undertow.server.Connectors.executeRootHandler");

	/**
	 * Frames of a request thread waiting for an HttpClient 5 pooled connection (all of
	 * them on its stack).
	 */
	static final List<String> HTTP_CLIENT_WAITING = List.of("org.apache.hc.core5.concurrent.BasicFuture.get",
			"org.apache.hc.client5.http.impl.classic.InternalExecRuntime.acquireEndpoint");

	/** Frames of a request thread that holds an HttpClient 5 connection (any of them). */
	static final List<String> HTTP_CLIENT_HOLDING = List.of("org.apache.hc.client5.http.impl.classic.MainClientExec",
			"org.apache.hc.client5.http.impl.classic.ConnectExec");

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

	private final SweepResult sweep;

	private final Step step;

	private final double ceiling;

	private final int kneeUsers;

	private final Duration w1;

	private Attribution(SweepResult sweep) {
		this.sweep = sweep;
		this.step = sweep.steps().get(sweep.steps().size() - 1);
		this.ceiling = sweep.ceiling();
		this.kneeUsers = sweep.knee().map(Step::users).orElse(this.step.users());
		this.w1 = sweep.oneUserLatency();
	}

	/** The verdict on {@code sweep}. */
	static Verdict of(SweepResult sweep) {
		return new Attribution(sweep).verdict();
	}

	private Verdict verdict() {
		if (this.step.result().generatorSaturated()) {
			return new Verdict(Resource.LOAD_GENERATOR, String.format(Locale.ROOT,
					"the load generator was the cap at %.1f rps with %d users: its busiest thread was on the CPU %d %% of the"
							+ " step, so the service's own cap is not known",
					this.step.throughput(), this.step.users(), Math.round(this.step.result().generatorBusy() * 100)),
					this.ceiling, Double.NaN, Map.of("generator busy", percent(this.step.result().generatorBusy())));
		}
		if (!this.sweep.saturated()) {
			Step last = this.step;
			return new Verdict(Resource.NONE,
					String.format(Locale.ROOT,
							"no cap up to %d users: %.1f rps, still rising with every doubling (W₁ %d ms)",
							last.users(), last.throughput(), this.w1.toMillis()),
					Double.NaN, Double.NaN, seen(this.step));
		}
		List<Verdict> candidates = new ArrayList<>();
		for (Function<Attribution, Optional<Verdict>> rule : List.<Function<Attribution, Optional<Verdict>>>of(
				Attribution::hikari, Attribution::hikariFromDump, Attribution::httpClient,
				Attribution::httpClientFromDump, Attribution::reactorNetty, Attribution::tomcatThreads,
				Attribution::carriers, Attribution::lock, Attribution::cpu, Attribution::downstream)) {
			Optional<Verdict> verdict = rule.apply(this);
			if (verdict.isEmpty()) {
				continue;
			}
			// A resource is the cap only when its Little's law explains the ceiling: a
			// pool full at moments, whose
			// model allows far more than was measured, is a candidate, not the answer.
			if (verdict.get().hasModel() && verdict.get().modelError() > MODEL_AGREEMENT) {
				candidates.add(verdict.get());
				continue;
			}
			return verdict.get();
		}
		if (!candidates.isEmpty()) {
			Map<String, String> evidence = new LinkedHashMap<>(seen(this.step));
			candidates.forEach((candidate) -> evidence.put("candidate " + candidate.resource().description(),
					String.format(Locale.ROOT, "model %.1f rps, %.2f× the ceiling", candidate.modelRps(),
							candidate.modelRps() / this.ceiling)));
			String lines = candidates.stream()
				.map((candidate) -> candidate.line().substring(candidate.line().indexOf(": ") + 2)
						+ String.format(Locale.ROOT, " (%.2f× the ceiling)", candidate.modelRps() / this.ceiling))
				.collect(Collectors.joining("; "));
			return new Verdict(Resource.UNEXPLAINED, String.format(Locale.ROOT,
					"capped at %.1f rps from %d users, and no resource's Little's law explains it within %d %%: %s",
					this.ceiling, this.kneeUsers, Math.round(MODEL_AGREEMENT * 100), lines), this.ceiling, Double.NaN,
					evidence);
		}
		return new Verdict(Resource.UNEXPLAINED, String.format(Locale.ROOT,
				"capped at %.1f rps from %d users, and no probe explains it: no pool, thread pool, carrier, lock or CPU was"
						+ " at its limit in the last step (%s)",
				this.ceiling, this.kneeUsers, describe(seen(this.step))), this.ceiling, Double.NaN, seen(this.step));
	}

	private Optional<Verdict> hikari() {
		return pool(this.step.service(), Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING).map((pool) -> {
			Duration held = this.step.service().meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES).orElse(this.w1);
			return capped(Resource.HIKARI_POOL, String.format(Locale.ROOT, "Hikari pool %d/%d active, %d pending",
					pool.inUse, pool.limit, pool.pending), pool.limit, "connections", held, "a use", pool.evidence());
		});
	}

	private Optional<Verdict> httpClient() {
		return pool(this.step.service(), Gauge.HTTP_POOL_LEASED, Gauge.HTTP_POOL_MAX_PER_ROUTE,
				Gauge.HTTP_POOL_PENDING)
			.map((pool) -> capped(Resource.HTTP_CLIENT_POOL, String.format(Locale.ROOT,
					"HttpClient pool %d/%d leased (per route), %d pending", pool.inUse, pool.limit, pool.pending),
					pool.limit, "connections", this.w1, "W₁", pool.evidence()));
	}

	/**
	 * The HttpClient 5 pool of a service that publishes no pool metrics (Spring Boot
	 * binds none), read from a thread dump: request threads parked in the pool's lease
	 * ({@code BasicFuture.get} under {@code PoolingHttpClientConnectionManager}'s lease
	 * request) wait for a connection, while those inside {@code MainClientExec} hold one.
	 * Some waiting while the holders are as many as in the last dumps says the pool is
	 * full at that many.
	 */
	private Optional<Verdict> httpClientFromDump() {
		return pooledFromDump(HTTP_CLIENT_WAITING, HTTP_CLIENT_HOLDING)
			.map((pool) -> capped(Resource.HTTP_CLIENT_POOL, String.format(Locale.ROOT,
					"HttpClient pool (from a thread dump) %d request threads hold a connection, %d wait in its lease",
					pool.inUse, pool.pending), pool.limit, "connections", this.w1, "W₁", pool.evidence()));
	}

	/**
	 * Hikari without its meters, from a thread dump: request threads in
	 * {@code HikariPool.getConnection} parked in {@code ConcurrentBag.borrow} wait for a
	 * connection; those using a Hikari proxy ({@code HikariProxy…}) hold one.
	 */
	private Optional<Verdict> hikariFromDump() {
		return pooledFromDump(HIKARI_WAITING, HIKARI_HOLDING).map((pool) -> capped(Resource.HIKARI_POOL,
				String.format(Locale.ROOT,
						"Hikari pool (from a thread dump) %d request threads hold a connection, %d wait in its borrow",
						pool.inUse, pool.pending),
				pool.limit, "connections", this.w1, "W₁", pool.evidence()));
	}

	/**
	 * A pool read from the steps' thread dumps: its limit is the most request threads
	 * seen holding a connection in a dump where others waited for one (a dump is one
	 * instant: a connection being handed on is held by nobody), and the last step's dump
	 * must show some waiting. Empty when no dump shows the pool full.
	 */
	private Optional<Pool> pooledFromDump(List<String> waitingFrames, List<String> holdingFrames) {
		int limit = 0;
		int pending = 0;
		String file = null;
		boolean lastWaits = false;
		for (Step each : this.sweep.steps()) {
			ThreadDump dump = each.threads();
			if (dump == null) {
				continue;
			}
			List<ThreadDump.DumpedThread> serving = dump.matching(Attribution::servesARequest);
			int waiting = (int) serving.stream()
				.filter((thread) -> waitingFrames.stream().allMatch(thread::hasFrame))
				.count();
			int holding = (int) serving.stream()
				.filter((thread) -> !waitingFrames.stream().allMatch(thread::hasFrame))
				.filter((thread) -> holdingFrames.stream().anyMatch(thread::hasFrame))
				.count();
			lastWaits = (each == this.step) && waiting >= 1 && holding >= 1;
			if (waiting >= 1 && holding > limit) {
				limit = holding;
				file = String.valueOf(dump.file().getFileName());
			}
			pending = Math.max(pending, waiting);
		}
		if (!lastWaits || limit < 1) {
			return Optional.empty();
		}
		return Optional
			.of(new Pool("request threads holding a connection (thread dump " + file + ")", limit, limit, pending));
	}

	private Optional<Verdict> reactorNetty() {
		return pool(this.step.service(), Gauge.REACTOR_ACTIVE, Gauge.REACTOR_MAX, Gauge.REACTOR_PENDING)
			.map((pool) -> capped(
					Resource.REACTOR_NETTY_POOL, String.format(Locale.ROOT,
							"Reactor Netty pool %d/%d active, %d pending", pool.inUse, pool.limit, pool.pending),
					pool.limit, "connections", this.w1, "W₁", pool.evidence()));
	}

	private Optional<Verdict> tomcatThreads() {
		return threadPool(this.step.service()).map((pool) -> capped(Resource.TOMCAT_THREADS,
				String.format(Locale.ROOT, "Tomcat threads %d/%d busy", pool.inUse, pool.limit), pool.limit, "threads",
				this.w1, "W₁", pool.evidence()));
	}

	private Optional<Verdict> carriers() {
		List<PinnedEvent> pinned = this.step.pinned();
		if (pinned.isEmpty()) {
			return Optional.empty();
		}
		Duration total = this.step.pinnedTime();
		double heldAtOnce = total.toNanos() / (double) this.step.wall().toNanos();
		if (heldAtOnce < PINNED_CARRIERS) {
			return Optional.empty();
		}
		int carriers = (int) Math.max(1, Math.round(heldAtOnce));
		Duration each = total.dividedBy(pinned.size());
		Map.Entry<String, Long> culprit = pinned.stream()
			.collect(Collectors.groupingBy(PinnedEvent::culprit, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElseThrow();
		Map<String, String> evidence = new LinkedHashMap<>();
		evidence.put("pinned events", Integer.toString(pinned.size()));
		evidence.put("pinned each", each.toMillis() + " ms");
		evidence.put("carriers held at once", String.format(Locale.ROOT, "%.1f", heldAtOnce));
		evidence.put("culprit", culprit.getKey() + " ×" + culprit.getValue());
		return Optional.of(capped(Resource.CARRIER_THREADS,
				String.format(Locale.ROOT, "%d pinned events of %d ms, %.1f carriers held at once, culprit %s",
						pinned.size(), each.toMillis(), heldAtOnce, culprit.getKey()),
				carriers, "carriers", each, "a pin", evidence));
	}

	private Optional<Verdict> lock() {
		ThreadDump dump = this.step.threads();
		if (dump == null) {
			return Optional.empty();
		}
		List<ThreadDump.DumpedThread> serving = dump.matching(Attribution::servesARequest);
		Map<String, Long> waiting = serving.stream()
			.map(ThreadDump.DumpedThread::lockTakenIn)
			.filter((frame) -> frame != null)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
		Optional<Map.Entry<String, Long>> crowd = waiting.entrySet().stream().max(Map.Entry.comparingByValue());
		if (serving.isEmpty() || crowd.isEmpty() || crowd.get().getValue() < 2
				|| crowd.get().getValue() < LOCK_CROWD * serving.size()) {
			return Optional.empty();
		}
		Map<String, String> evidence = new LinkedHashMap<>();
		evidence.put("request threads waiting for the lock", crowd.get().getValue() + " of " + serving.size());
		evidence.put("lock taken in", crowd.get().getKey());
		evidence.put("thread dump", String.valueOf(dump.file().getFileName()));
		String line = String.format(Locale.ROOT,
				"capped at %.1f rps from %d users: %d of %d request threads parked on a" + " lock taken in %s",
				this.ceiling, this.kneeUsers, crowd.get().getValue(), serving.size(), crowd.get().getKey());
		// One holder at a time: the lock allows ceiling requests per second, so each
		// holds it 1 / ceiling.
		return Optional.of(new Verdict(Resource.LOCK, line, this.ceiling, Double.NaN, evidence));
	}

	private Optional<Verdict> cpu() {
		if (Double.isNaN(this.step.serviceCores())
				|| this.step.serviceCores() < CPU_SATURATED * this.step.serviceCpuLimit()) {
			return Optional.empty();
		}
		// The utilization law on the samples of one step: the step that measured the
		// ceiling, with the CPU its
		// container used over that step and the requests answered over the same step (λ =
		// U / S, S = U × t / n).
		// CPU per request is not the same at every concurrency (S9's route: 64 ms with
		// one user, 84 ms with two,
		// 71 ms with four on one CPU), so a model built at another step than the
		// ceiling's compares unlike things.
		Step atCeiling = this.sweep.steps()
			.stream()
			.filter((s) -> !Double.isNaN(s.serviceCores()) && s.serviceCores() >= CPU_SATURATED * s.serviceCpuLimit())
			.max(Comparator.comparingDouble(Step::throughput))
			.orElse(this.step);
		long requests = atCeiling.result()
			.timeline()
			.stream()
			.mapToLong((second) -> second.succeeded() + second.failed())
			.sum();
		Duration perRequest = Duration
			.ofNanos(Math.round(atCeiling.serviceCores() * atCeiling.wall().toNanos() / Math.max(1, requests)));
		Map<String, String> evidence = new LinkedHashMap<>();
		evidence.put("cores used",
				String.format(Locale.ROOT, "%.2f of %.2f", atCeiling.serviceCores(), atCeiling.serviceCpuLimit()));
		evidence.put("CPU per request",
				perRequest.toMillis() + " ms, " + requests + " requests in the " + atCeiling.users() + "-user step");
		double model = atCeiling.serviceCpuLimit() / (perRequest.toNanos() / 1e9);
		String line = String.format(Locale.ROOT,
				"capped at %.1f rps from %d users: the service used %.2f of its %s CPU"
						+ " with %d users — %s / %d ms of CPU per request = %.1f rps",
				this.ceiling, this.kneeUsers, atCeiling.serviceCores(), cores(atCeiling.serviceCpuLimit()),
				atCeiling.users(), cores(atCeiling.serviceCpuLimit()), perRequest.toMillis(), model);
		return Optional.of(new Verdict(Resource.CPU, line, this.ceiling, model, evidence));
	}

	private Optional<Verdict> downstream() {
		GaugeTimeline gauges = this.step.downstream();
		Optional<Pool> threads = threadPool(gauges);
		if (threads.isPresent()) {
			Pool pool = threads.get();
			return Optional.of(capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's Tomcat threads %d/%d busy", pool.inUse, pool.limit),
					pool.limit, "downstream threads", this.w1, "W₁", pool.evidence()));
		}
		Optional<Pool> hikari = pool(gauges, Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING);
		if (hikari.isPresent()) {
			Pool pool = hikari.get();
			return Optional.of(capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's Hikari pool %d/%d active, %d pending", pool.inUse,
							pool.limit, pool.pending),
					pool.limit, "downstream connections", this.w1, "W₁", pool.evidence()));
		}
		if (!Double.isNaN(this.step.downstreamCores())
				&& this.step.downstreamCores() >= CPU_SATURATED * this.step.downstreamCpuLimit()) {
			Map<String, String> evidence = Map.of("downstream cores used", String.format(Locale.ROOT, "%.2f of %.2f",
					this.step.downstreamCores(), this.step.downstreamCpuLimit()));
			return Optional.of(new Verdict(Resource.DOWNSTREAM,
					String.format(Locale.ROOT,
							"capped at %.1f rps from %d users: the downstream used %.2f of its %s CPU", this.ceiling,
							this.kneeUsers, this.step.downstreamCores(), cores(this.step.downstreamCpuLimit())),
					this.ceiling, Double.NaN, evidence));
		}
		return Optional.empty();
	}

	/**
	 * "capped at 10.0 rps from 8 users: HttpClient pool 5/5 leased, 35 pending — 5
	 * connections / 0.503 s = 9.9 rps"
	 */
	private Verdict capped(Resource resource, String saw, int limit, String unit, Duration w, String wIs,
			Map<String, String> evidence) {
		double model = limit / (w.toNanos() / 1e9);
		Map<String, String> all = new LinkedHashMap<>(evidence);
		all.put("W (" + wIs + ")", w.toMillis() + " ms");
		String line = String.format(Locale.ROOT, "capped at %.1f rps from %d users: %s — %d %s / %.3f s = %.1f rps",
				this.ceiling, this.kneeUsers, saw, limit, unit, w.toNanos() / 1e9, model);
		return new Verdict(resource, line, this.ceiling, model, all);
	}

	/**
	 * A pool at its limit with work pending for it, from its in-use, limit and pending
	 * gauges.
	 */
	private static Optional<Pool> pool(GaugeTimeline gauges, Gauge inUse, Gauge limit, Gauge pending) {
		OptionalDouble used = gauges.max(inUse);
		OptionalDouble max = gauges.max(limit);
		OptionalDouble waiting = gauges.max(pending);
		if (used.isEmpty() || max.isEmpty() || waiting.isEmpty() || max.getAsDouble() < 1
				|| used.getAsDouble() < max.getAsDouble() || waiting.getAsDouble() < 1) {
			return Optional.empty();
		}
		return Optional.of(new Pool(inUse.label(), (int) Math.round(used.getAsDouble()),
				(int) Math.round(max.getAsDouble()), (int) Math.round(waiting.getAsDouble())));
	}

	/**
	 * Tomcat's platform threads all busy (busy is -1 when requests run on virtual
	 * threads).
	 */
	private static Optional<Pool> threadPool(GaugeTimeline gauges) {
		OptionalDouble busy = gauges.max(Gauge.TOMCAT_BUSY);
		OptionalDouble max = gauges.max(Gauge.TOMCAT_MAX);
		if (busy.isEmpty() || max.isEmpty() || busy.getAsDouble() < 1 || busy.getAsDouble() < max.getAsDouble()) {
			return Optional.empty();
		}
		int connections = (int) Math.round(gauges.max(Gauge.TOMCAT_CONNECTIONS).orElse(Double.NaN));
		return Optional.of(new Pool(Gauge.TOMCAT_BUSY.label(), (int) Math.round(busy.getAsDouble()),
				(int) Math.round(max.getAsDouble()), Math.max(0, connections - (int) Math.round(max.getAsDouble()))));
	}

	private static boolean servesARequest(ThreadDump.DumpedThread thread) {
		return REQUEST_FRAMES.stream().anyMatch(thread::hasFrame);
	}

	/** What the probes read in {@code step}: gauge maxima, CPU, pinned events. */
	private static Map<String, String> seen(Step step) {
		Map<String, String> seen = new LinkedHashMap<>(step.service().maxima());
		step.downstream().maxima().forEach((key, value) -> seen.put("downstream " + key, value));
		if (!Double.isNaN(step.serviceCores())) {
			seen.put("cores used",
					String.format(Locale.ROOT, "%.2f of %.2f", step.serviceCores(), step.serviceCpuLimit()));
		}
		if (!step.pinned().isEmpty()) {
			seen.put("pinned events", Integer.toString(step.pinned().size()));
		}
		if (!step.result().errors().isEmpty()) {
			seen.put("errors", step.result().errors().toString());
		}
		return seen;
	}

	private static String describe(Map<String, String> seen) {
		return seen.isEmpty() ? "no probe attached"
				: seen.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(Collectors.joining(", "));
	}

	private static String cores(double cores) {
		return (cores == Math.rint(cores)) ? String.format(Locale.ROOT, "%.0f", cores)
				: String.format(Locale.ROOT, "%.2f", cores);
	}

	private static String percent(double share) {
		return Math.round(share * 100) + " %";
	}

	/**
	 * A pool's reading: what was in use at most, its limit, and how many waited at most.
	 */
	private record Pool(String label, int inUse, int limit, int pending) {

		Map<String, String> evidence() {
			Map<String, String> evidence = new LinkedHashMap<>();
			evidence.put(this.label + " max", this.inUse + " of " + this.limit);
			evidence.put("waiting max", Integer.toString(this.pending));
			return evidence;
		}

	}

}
