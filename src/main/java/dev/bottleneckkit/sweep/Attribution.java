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
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.Verdict.Model;

/**
 * Names the resource that saturated in a sweep, from what the probes read in its most
 * loaded steps. Each rule ({@link LimitRules}, {@link DemandRules}) looks for a resource
 * at its limit with work waiting for it and gives it a model, Little's law or the
 * utilization law from the same steps ({@code limit / hold}); the first whose model
 * explains the measured ceiling within {@link Capped#MODEL_AGREEMENT} names the cap. A
 * resource at its limit whose model does not explain the ceiling is a candidate the
 * verdict lists; when none explains it the verdict is {@link Verdict.Unexplained}, with
 * what was seen and what could not be seen: it never guesses.
 */
final class Attribution {

	/**
	 * The rules, in the order they are asked: the first whose model agrees names the cap.
	 */
	private static final List<Function<AtCap, Optional<Capped>>> RULES = List.of(OwnResources::declared,
			LimitRules::hikari, LimitRules::hikariFromDump, LimitRules::httpClient, LimitRules::httpClientFromDump,
			LimitRules::reactorNetty, LimitRules::agroal, LimitRules::agroalFromDump, Bulkheads::bulkhead,
			RateLimiters::rateLimiter, OwnPools::ownPool, LimitRules::tomcatThreads, LimitRules::workerPoolFromDump,
			DemandRules::carriers, DemandRules::lock, DemandRules::downstream, LimitRules::connectionPool,
			DemandRules::cpu);

	/** The resources whose model divides by what a request demands, read on a step. */
	private static final Set<Resource> DEMANDS = EnumSet.of(Resource.CARRIER_THREADS, Resource.CPU,
			Resource.DOWNSTREAM);

	private static final Limit TOMCAT = new Limit(Resource.TOMCAT_THREADS, Gauge.TOMCAT_MAX,
			"Tomcat threads (%.0f configured)", "threads");

	private static final Limit HIKARI = new Limit(Resource.HIKARI_POOL, Gauge.HIKARI_MAX,
			"Hikari pool (%.0f connections)", "connections");

	private static final Limit HTTP_CLIENT = new Limit(Resource.HTTP_CLIENT_POOL, Gauge.HTTP_POOL_MAX_PER_ROUTE,
			"HttpClient pool (%.0f per route)", "connections");

	private static final Limit REACTOR_NETTY = new Limit(Resource.REACTOR_NETTY_POOL, Gauge.REACTOR_MAX,
			"Reactor Netty pool (%.0f connections)", "connections");

	/** The configured limits a bound is read from, by the resource they limit. */
	private static final Map<Resource, Limit> LIMITS = Map.of(TOMCAT.resource(), TOMCAT, HIKARI.resource(), HIKARI,
			HTTP_CLIENT.resource(), HTTP_CLIENT, REACTOR_NETTY.resource(), REACTOR_NETTY);

	private Attribution() {
	}

	/**
	 * The verdict on {@code readings}, each resource's own ceiling, what caps next and
	 * the scalability curve.
	 */
	static Analysis of(Readings readings) {
		return of(readings, List.of());
	}

	/**
	 * The same, with the resources of the team's own the test declared: they are weighed
	 * first, the team knowing its service best.
	 */
	static Analysis of(Readings readings, List<Resource.Own> own) {
		AtCap at = AtCap.of(readings, own);
		Verdict verdict = withNeighbours(withoutTheDeclaration(verdict(at), readings, own), at);
		List<Verdict.Bound> bounds = Roots.unqueued(at, verdict, bounds(at));
		Optional<Resource> cap = verdict.cap();
		// A ceiling below the one measured is no resource's: its model read the route
		// wrong.
		Optional<Verdict.Bound> next = bounds.stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= at.ceiling())
			.findFirst();
		return new Analysis(verdict, bounds, next, Scalability.fit(readings.steps()));
	}

	/**
	 * What caps next with the knob turned, read from {@code turned}, the confirmation's
	 * best step: the configured limits as the sweep read them, or as {@code turned} read
	 * them where the knob changed one (a pool raised under a CPU root is not the cap, and
	 * keeps its bound, at its new limit), the demands a request makes (its CPU, its
	 * pinned time, the downstream's hold) as that step measured them. A demand read on
	 * the knee's step is the service's at that step's pace and warmth: a service still
	 * warming, or one whose carriers queued, spent more CPU a request there than it
	 * spends with the cap raised.
	 */
	static Optional<Verdict.Bound> nextCap(Analysis sweep, double ceiling, Step turned) {
		Optional<Resource> cap = sweep.verdict().cap();
		List<Verdict.Bound> bounds = new ArrayList<>(sweep.bounds()
			.stream()
			.filter((bound) -> !DEMANDS.contains(bound.resource()))
			.map((bound) -> asConfigured(bound, turned))
			.toList());
		bounds.addAll(Demands.demandBounds(turned));
		return bounds.stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= ceiling)
			.min(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
	}

	/**
	 * {@code bound} at the limit {@code turned} read for its resource, where that differs
	 * from the sweep's: the same hold, the new limit.
	 */
	private static Verdict.Bound asConfigured(Verdict.Bound bound, Step turned) {
		Limit limit = LIMITS.get(bound.resource());
		OptionalDouble now = (limit != null) ? turned.service().max(limit.gauge()) : OptionalDouble.empty();
		if (now.isEmpty() || !(now.getAsDouble() > 0) || now.getAsDouble() == bound.model().limit()) {
			return bound;
		}
		return limit.at(now.getAsDouble(), bound.model().hold(), bound.model().holdIs());
	}

	/**
	 * {@code verdict} with what other processes took beside the test at the cap, where
	 * that was at least {@value DemandRules#NEIGHBOUR} of a core: a neighbour at the same
	 * priority shares the cores, and what the service reached is its share beside it.
	 */
	private static Verdict withNeighbours(Verdict verdict, AtCap at) {
		OptionalDouble others = DemandRules.neighbours(at);
		if (!(verdict instanceof Capped capped) || others.isEmpty()) {
			return verdict;
		}
		Map<String, String> readings = new LinkedHashMap<>(capped.readings());
		readings.put(Capped.SHARED_CORES, String.format(Locale.ROOT,
				"other processes took up to %.2f cores beside the test at the cap: the scheduler shares the cores"
						+ " among runnable threads, so what the service reached is its share beside them, and more"
						+ " of its threads (a larger pool) may win it more",
				others.getAsDouble()));
		return new Capped(capped.resource(), capped.ceilingRps(), capped.fromUsers(), capped.saw(), capped.model(),
				capped.where(), readings);
	}

	/**
	 * {@code verdict} naming a resource of the team's own, with what the kit's own rules
	 * say of the same readings without the declaration: a person sees what the kit alone
	 * could tell, and a cap no rule knows reads what it saw full, never another
	 * resource's name.
	 */
	private static Verdict withoutTheDeclaration(Verdict verdict, Readings readings, List<Resource.Own> own) {
		if (own.isEmpty() || !(verdict instanceof Capped capped) || capped.resource() != Resource.OWN) {
			return verdict;
		}
		Map<String, String> seen = new LinkedHashMap<>(capped.readings());
		seen.put(Verdict.Capped.UNDECLARED, verdict(AtCap.of(readings, List.of())).line());
		return new Capped(capped.resource(), capped.ceilingRps(), capped.fromUsers(), capped.saw(), capped.model(),
				capped.where(), seen);
	}

	/**
	 * The verdict on {@code at}, and where the knee's steps measured a JVM still warming
	 * up (its compilers busy), a verdict that says so: its figures are the JIT's as much
	 * as the service's.
	 */
	private static Verdict verdict(AtCap at) {
		Verdict verdict = named(at);
		List<Step> warming = at.atCap().stream().filter(Step::warming).toList();
		if (warming.isEmpty()) {
			return verdict;
		}
		double busiest = warming.stream().mapToDouble((step) -> step.compilerCores().getAsDouble()).max().orElse(0);
		String warm = String.format(Locale.ROOT,
				"the compilers took up to %.2f of a core in %d of the %d steps at" + " the cap", busiest,
				warming.size(), at.atCap().size());
		if (verdict instanceof Verdict.Unexplained unexplained) {
			Map<String, String> readings = new LinkedHashMap<>(unexplained.readings());
			readings.put(Verdict.Unexplained.WARMING, warm);
			return new Verdict.Unexplained(unexplained.ceilingRps(), unexplained.fromUsers(), unexplained.candidates(),
					unexplained.blind(), readings);
		}
		if (!(verdict instanceof Capped capped)) {
			return verdict;
		}
		Map<String, String> readings = new LinkedHashMap<>(capped.readings());
		readings.put(Verdict.Unexplained.WARMING, warm);
		return new Capped(capped.resource(), capped.ceilingRps(), capped.fromUsers(),
				capped.saw() + String.format(Locale.ROOT,
						"; the knee's steps were still warming (the compilers at up to %.2f of a core): a longer"
								+ " warm-up reads the service's own ceiling",
						busiest),
				capped.model(), capped.where(), readings);
	}

	private static Verdict named(AtCap at) {
		Step last = at.last();
		if (last.result().generatorSaturated()) {
			return new Verdict.GeneratorBound(last.throughput(), last.users(), last.result().generatorBusy());
		}
		if (!at.readings().saturated()) {
			return new Verdict.NoCap(last.users(), last.throughput(), at.w1(), seen(last));
		}
		List<Capped> candidates = new ArrayList<>();
		for (Function<AtCap, Optional<Capped>> rule : RULES) {
			Optional<Capped> verdict = rule.apply(at);
			if (verdict.isEmpty()) {
				continue;
			}
			// A resource is the cap only when its model explains the ceiling: a pool full
			// at moments, whose model allows far more than was measured, is a candidate.
			if (verdict.get().modelError() > Capped.MODEL_AGREEMENT) {
				candidates.add(verdict.get());
				continue;
			}
			return Roots.rooted(at, LimitRules.agreeing(at, verdict.get()));
		}
		Map<String, String> seen = new LinkedHashMap<>();
		at.upstream().ifPresent((waits) -> seen.put(Verdict.Unexplained.UPSTREAM, waits));
		seen.putAll(seen(last));
		return new Verdict.Unexplained(at.ceiling(), at.kneeUsers(), candidates, at.readings().blind(), seen);
	}

	/**
	 * Each resource's own ceiling, read from the sweep whether or not it was full, lowest
	 * first: pools and threads by their configured limit over W₁ (for Hikari, the uses of
	 * a request × the hold of a use), carriers over the pinned time of a request, the CPU
	 * over the CPU of a request, the stand-in downstream's threads over its hold. What
	 * caps next is the lowest after the verdict's own.
	 */
	private static List<Verdict.Bound> bounds(AtCap at) {
		List<Verdict.Bound> bounds = new ArrayList<>();
		GaugeTimeline gauges = at.last().service();
		Duration w1 = at.w1();
		// A resource the route does not use has no ceiling on it: pools and threads count
		// only when the steps saw them in use.
		if (inUse(at, Gauge.TOMCAT_BUSY)) {
			gauges.max(Gauge.TOMCAT_MAX).ifPresent((max) -> bounds.add(TOMCAT.at(max, w1, "W₁")));
		}
		if (inUse(at, Gauge.HIKARI_ACTIVE)) {
			gauges.max(Gauge.HIKARI_MAX)
				.ifPresent((max) -> bounds.add(PoolUses.hikari(at.last(), max)
					.map((demand) -> HIKARI.at(max, demand.model().hold(), demand.model().holdIs()))
					.orElseGet(() -> HIKARI.at(max, w1, "W₁"))));
		}
		if (inUse(at, Gauge.HTTP_POOL_LEASED)) {
			gauges.max(Gauge.HTTP_POOL_MAX_PER_ROUTE).ifPresent((max) -> bounds.add(HTTP_CLIENT.at(max, w1, "W₁")));
		}
		if (inUse(at, Gauge.REACTOR_ACTIVE)) {
			gauges.max(Gauge.REACTOR_MAX).ifPresent((max) -> bounds.add(REACTOR_NETTY.at(max, w1, "W₁")));
		}
		bounds.addAll(Demands.demandBounds(at.last()));
		bounds.sort(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
		return bounds;
	}

	/** Whether the steps saw {@code inUse} above zero: the route uses that resource. */
	private static boolean inUse(AtCap at, Gauge inUse) {
		return at.atCap().stream().anyMatch((s) -> s.service().max(inUse).orElse(0) >= 1)
				|| at.last().service().max(inUse).orElse(0) >= 1;
	}

	/** What the probes read in {@code step}: gauge maxima, CPU, connections, pins. */
	private static Map<String, String> seen(Step step) {
		Map<String, String> seen = new LinkedHashMap<>(step.service().maxima());
		step.downstream().maxima().forEach((key, value) -> seen.put("downstream " + key, value));
		step.cpu().ifPresent((use) -> {
			seen.put("cores used",
					String.format(Locale.ROOT, "service %.2f of %s", use.service(), Verdict.count(use.serviceLimit())));
			seen.put("machine", String.format(Locale.ROOT, "%.2f of %s cores: %s", use.machineUsed(),
					Verdict.count(use.machineCores()), Demands.split(use)));
		});
		if (!step.connections().isEmpty()) {
			seen.put("connections",
					step.connections()
						.stream()
						.limit(5)
						.map(Step.Destination::toString)
						.collect(Collectors.joining(", ")));
		}
		if (!step.pinned().isEmpty()) {
			seen.put("pinned events", Integer.toString(step.pinned().size()));
		}
		step.compilerCores()
			.ifPresent((cores) -> seen.put("JIT compilers", String.format(Locale.ROOT, "%.2f of a core%s", cores,
					step.warming() ? ": the JVM was still warming up" : "")));
		if (!step.result().errors().isEmpty()) {
			seen.put("errors", step.result().errors().toString());
		}
		return seen;
	}

	/**
	 * A configured limit: the resource, the gauge that reads it, and how a bound names it
	 * ({@code name} formats the limit).
	 */
	private record Limit(Resource resource, Gauge gauge, String name, String unit) {

		Verdict.Bound at(double max, Duration hold, String holdIs) {
			return new Verdict.Bound(this.resource, String.format(Locale.ROOT, this.name, max),
					new Model(max, this.unit, hold, holdIs));
		}

	}

}
