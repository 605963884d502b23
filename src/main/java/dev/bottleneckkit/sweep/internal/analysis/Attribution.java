package dev.bottleneckkit.sweep.internal.analysis;

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

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Scalability;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKind;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.run.Readings;

/**
 * Names the resource that saturated in a sweep, from what the probes read in its most
 * loaded steps. Each kind's rule ({@link ResourceKind#rules}) looks for a resource at its
 * limit with work waiting for it and gives it a model, Little's law or the utilization
 * law from the same steps ({@code limit / hold}); the first whose model explains the
 * measured ceiling within {@link AnalysisPolicy#MODEL_AGREEMENT} names the cap. A
 * resource at its limit whose model does not explain the ceiling is a candidate the
 * verdict lists; when none explains it the verdict is {@link Verdict.Unexplained}, with
 * what was seen and what could not be seen: it never guesses.
 */
public final class Attribution {

	/**
	 * The rules, in the order they are asked: the first whose model agrees names the cap
	 * ({@link ResourceKinds#ALL}).
	 */
	private static final List<Function<AtCap, Optional<Capped>>> RULES = ResourceKinds.rules();

	private Attribution() {
	}

	/**
	 * The verdict on {@code readings}, each resource's own ceiling, what caps next and
	 * the scalability curve.
	 */
	public static Analysis of(Readings readings) {
		return of(readings, List.of());
	}

	/**
	 * The same, with the resources of the team's own the test declared: they are weighed
	 * first, the team knowing its service best.
	 */
	public static Analysis of(Readings readings, List<Resource.Own> own) {
		AtCap at = AtCap.of(readings, own, ResourceKinds.servers(), ResourceKinds.permits());
		Verdict verdict = withFailures(withNeighbours(withoutTheDeclaration(verdict(at), readings, own), at), at);
		List<Verdict.Bound> bounds = ResourceKinds.unqueued(at, verdict, bounds(at));
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
	public static Optional<Verdict.Bound> nextCap(Analysis sweep, double ceiling, Step turned) {
		Optional<Resource> cap = sweep.verdict().cap();
		List<Verdict.Bound> bounds = new ArrayList<>(sweep.bounds()
			.stream()
			.filter((bound) -> !ResourceKinds.of(bound.resource()).demanded())
			.map((bound) -> ResourceKinds.of(bound.resource()).asConfigured(bound, turned))
			.toList());
		bounds.addAll(ResourceKinds.demands(turned));
		return bounds.stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= ceiling)
			.min(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
	}

	/**
	 * {@code verdict} with what other processes took beside the test at the cap, where
	 * that was at least {@value AnalysisPolicy#NEIGHBOUR} of a core: a neighbour at the
	 * same priority shares the cores, and what the service reached is its share beside
	 * it.
	 */
	private static Verdict withNeighbours(Verdict verdict, AtCap at) {
		OptionalDouble others = at.neighbours();
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
	 * {@code verdict} with the answers that failed in the steps at and past the knee,
	 * their count, share and kinds, whatever it names: a cap that turns requests away and
	 * one that makes them wait past a timeout read alike without them.
	 */
	static Verdict withFailures(Verdict verdict, AtCap at) {
		List<String> steps = at.atCap()
			.stream()
			.filter((step) -> step.result().errorCount() > 0)
			.map((step) -> String.format(Locale.ROOT, "%,d of %,d at %s (%.0f %%, %s)", step.result().errorCount(),
					step.result().completed(), AtCap.usersText(step.users()),
					100.0 * step.result().errorCount() / step.result().completed(),
					step.result()
						.errors()
						.entrySet()
						.stream()
						.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
						.limit(2)
						.map(Map.Entry::getKey)
						.collect(Collectors.joining(", "))))
			.toList();
		if (steps.isEmpty()) {
			return verdict;
		}
		Map<String, String> readings = new LinkedHashMap<>(verdict.readings());
		readings.put(Verdict.FAILED, String.join(", ", steps));
		return switch (verdict) {
			case Capped capped -> new Capped(capped.resource(), capped.ceilingRps(), capped.fromUsers(), capped.saw(),
					capped.model(), capped.where(), readings);
			case Verdict.Unexplained unexplained -> new Verdict.Unexplained(unexplained.ceilingRps(),
					unexplained.fromUsers(), unexplained.candidates(), unexplained.blind(), readings);
			case Verdict.NoCap noCap ->
				new Verdict.NoCap(noCap.upToUsers(), noCap.lastRps(), noCap.oneUserLatency(), readings);
			case Verdict.GeneratorBound generator -> generator;
		};
	}

	/**
	 * {@code verdict} naming a resource of the team's own, with what the kit's own rules
	 * say of the same readings without the declaration: a person sees what the kit alone
	 * could tell, and a cap no rule knows reads what it saw full, never another
	 * resource's name.
	 */
	private static Verdict withoutTheDeclaration(Verdict verdict, Readings readings, List<Resource.Own> own) {
		if (!(verdict instanceof Capped capped)
				|| own.stream().noneMatch((declared) -> capped.where().equals(Optional.of(declared.words())))) {
			return verdict;
		}
		Map<String, String> seen = new LinkedHashMap<>(capped.readings());
		seen.put(Verdict.Capped.UNDECLARED,
				verdict(AtCap.of(readings, List.of(), ResourceKinds.servers(), ResourceKinds.permits())).line());
		return new Capped(capped.resource(), capped.ceilingRps(), capped.fromUsers(), capped.saw(), capped.model(),
				capped.where(), seen);
	}

	/**
	 * The verdict on {@code at}, and where the knee's steps measured a JVM still warming
	 * up (its compilers busy) on full cores, a verdict that says so: its figures are the
	 * JIT's as much as the service's. Where the service, compilers and all, used less
	 * than {@value #JIT_FULL} of the cores it could have had, the compilers took no core
	 * the requests waited for: the cap is read from where they waited, and the JIT is no
	 * excuse.
	 */
	private static Verdict verdict(AtCap at) {
		Verdict verdict = named(at);
		List<Step> warming = at.atCap().stream().filter(Attribution::warmingOnFullCores).toList();
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

	/**
	 * The share of the cores a service could have had (its limit, or what the machine
	 * left it) that its JVM, compilers included, must use for a warming step's JIT to be
	 * the cap's excuse.
	 */
	static final double JIT_FULL = 0.9;

	/**
	 * Whether {@code step} measured a JVM still warming up on full cores: its compilers
	 * busy and its service, compilers included, at {@value #JIT_FULL} of its usable cores
	 * or more (or its CPU not read).
	 */
	static boolean warmingOnFullCores(Step step) {
		return step.warming() && step.cpu()
			.map((use) -> use.serviceCores() <= 0 || use.service() >= JIT_FULL * use.serviceCores())
			.orElse(true);
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
			if (verdict.get().modelError() > AnalysisPolicy.MODEL_AGREEMENT) {
				candidates.add(verdict.get());
				continue;
			}
			return ResourceKinds.rooted(at, Corroboration.agreeing(at, verdict.get()));
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
		for (ResourceKind kind : ResourceKinds.ALL) {
			kind.bound(at).ifPresent(bounds::add);
		}
		bounds.addAll(ResourceKinds.demands(at.last()));
		bounds.sort(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()));
		return bounds;
	}

	/** What the probes read in {@code step}: gauge maxima, CPU, connections, pins. */
	private static Map<String, String> seen(Step step) {
		Map<String, String> seen = new LinkedHashMap<>(step.service().maxima());
		step.downstream().maxima().forEach((key, value) -> seen.put("downstream " + key, value));
		step.cpu().ifPresent((use) -> {
			seen.put("cores used",
					String.format(Locale.ROOT, "service %.2f of %s", use.service(), Knobs.count(use.serviceLimit())));
			seen.put("machine", String.format(Locale.ROOT, "%.2f of %s cores: %s", use.machineUsed(),
					Knobs.count(use.machineCores()), Demands.split(use)));
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
		return seen;
	}

}
