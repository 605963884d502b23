package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.ServiceLoader;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.sweep.internal.analysis.Analysis;
import dev.bottleneckkit.sweep.internal.analysis.Attribution;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.run.KnobTurns;
import dev.bottleneckkit.sweep.internal.run.PairRun;
import dev.bottleneckkit.sweep.internal.run.Readings;
import dev.bottleneckkit.sweep.internal.run.RunWide;
import dev.bottleneckkit.sweep.internal.run.SweepRun;
import org.assertj.core.data.Percentage;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Finds where a service stops scaling and which resource stops it. After a warm-up that
 * lasts until the service's latency settles, closed-loop steps at 1, 2, 4, 8, … users (up
 * to {@link #upToUsers}), stopping as soon as doubling the users no longer raises
 * throughput while latency grows. Each step records throughput, latency, errors by kind
 * and everything the service shows: its Spring Boot meters, a thread dump, its pinned
 * virtual threads and carriers, its outbound TCP connections by destination, and the CPU
 * of the machine split between the service, its neighbours and the load generator. The
 * {@link SweepResult} holds the knee, the ceiling and a {@link Verdict} naming the
 * saturated resource with the model that explains the ceiling, or saying that none does
 * and what could not be seen.
 *
 * <pre>{@code
 * static final ServiceContainer orders = new ServiceContainer("registry.example.com/orders:1.4.2");
 *
 * SweepResult sweep = Sweep.of(orders, "/orders/42").upToUsers(64).run();
 * assertThat(sweep).isCappedBy(Resource.HIKARI_POOL);
 * }</pre>
 *
 * A sweep is its settings, immutable: each method returns a new one. {@link #run()} goes
 * through four rooms, data flowing one way: the run measures ({@code SweepRun}, which
 * opens and closes the probes), the analysis concludes ({@code Attribution}), the knobs
 * are turned when asked ({@code KnobTurns}, which puts the service back before
 * {@code run()} returns), and a {@link SweepResult} holds it all, complete when made.
 * Step lengths follow the route: each step measures until every user has gone through two
 * whole cycles. The sweep runs as one load run: container starts of scenarios side by
 * side wait for it.
 */
public final class Sweep {

	/** Users of the last step unless told. */
	public static final int DEFAULT_MAX_USERS = 64;

	private final List<Request> mix;

	private final String name;

	private final int maxUsers;

	private final Duration requestTimeout;

	private final AbstractServiceContainer<?> service;

	private final GenericContainer<?> downstream;

	/** The longest the warm-up before the first step may last. */
	private final Duration warmUpAtMost;

	/**
	 * What is done after the steps: the verdict put to the test, a limit searched for.
	 */
	private final Checks checks;

	/** The resources of the team's own the test declared ({@link #knowing}). */
	private final List<Resource.Own> own;

	/**
	 * The paths of a sweep of several routes
	 * ({@link #of(AbstractServiceContainer, String, String...)}), each swept on its own
	 * by {@link #runEach()}; empty for one route or a mix.
	 */
	private final List<String> routes;

	/**
	 * What a sweep does after its steps with the service's knobs.
	 *
	 * @param confirming whether the verdict is put to the test by turning its resource's
	 * knob
	 * @param knob the knob to turn, when not the resource's own
	 * @param reaching the throughput whose smallest limit is searched for
	 * @param against the base image the service is measured against side by side, when
	 * named
	 * @param guard the budget and the bound of an A/B guard
	 */
	private record Checks(boolean confirming, Optional<Knob> knob, OptionalDouble reaching,
			Optional<DockerImageName> against, PairRun.Guard guard) {

		static final Checks NONE = new Checks(false, Optional.empty(), OptionalDouble.empty(), Optional.empty(),
				PairRun.Guard.DEFAULT);

		Checks confirming(Optional<Knob> knob) {
			return new Checks(true, knob, this.reaching, this.against, this.guard);
		}

		Checks reaching(double rps) {
			return new Checks(this.confirming, this.knob, OptionalDouble.of(rps), this.against, this.guard);
		}

		Checks against(DockerImageName base) {
			return new Checks(this.confirming, this.knob, this.reaching, Optional.of(base), this.guard);
		}

		Checks guard(PairRun.Guard guard) {
			return new Checks(this.confirming, this.knob, this.reaching, this.against, guard);
		}

		boolean any() {
			return this.confirming || this.reaching.isPresent();
		}

	}

	private Sweep(List<Request> mix, String name, int maxUsers, Duration requestTimeout,
			AbstractServiceContainer<?> service, GenericContainer<?> downstream, Duration warmUpAtMost) {
		this(mix, name, maxUsers, requestTimeout, service, downstream, warmUpAtMost, Checks.NONE, List.of(), List.of());
	}

	private Sweep(List<Request> mix, String name, int maxUsers, Duration requestTimeout,
			AbstractServiceContainer<?> service, GenericContainer<?> downstream, Duration warmUpAtMost, Checks checks,
			List<Resource.Own> own, List<String> routes) {
		this.checks = checks;
		this.routes = List.copyOf(routes);
		this.own = List.copyOf(own);
		this.mix = List.copyOf(mix);
		this.name = name;
		this.maxUsers = maxUsers;
		this.requestTimeout = requestTimeout;
		this.service = service;
		this.downstream = downstream;
		this.warmUpAtMost = warmUpAtMost;
	}

	/**
	 * A sweep of {@code path} on {@code service} (e.g. {@code "/orders/42"}), up to
	 * {@value #DEFAULT_MAX_USERS} users, reading everything the service shows.
	 */
	public static Sweep of(AbstractServiceContainer<?> service, String path) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("path must start with '/', was '" + path + "'");
		}
		return of(service, Request.get(service.uri(path))).named("sweep " + path);
	}

	/**
	 * Sweeps of several routes of {@code service} (e.g. {@code "/stock", "/label"}), each
	 * on its own: {@link #runEach()} runs them one after the other and hands back a
	 * result a route, in this order. With {@link #against(String)} both images start once
	 * for all the routes, each route gets its own knee, blocks and ratio with its
	 * interval, and the console prints a table of the routes. A route is named by the
	 * sweep's name and its path: {@code named("guard")} gives "guard /stock", "guard
	 * /label".
	 */
	public static Sweep of(AbstractServiceContainer<?> service, String path, String... morePaths) {
		Sweep first = of(service, path);
		List<String> paths = new ArrayList<>(List.of(path));
		for (String more : morePaths) {
			of(service, more); // each path as a sweep of one route refuses it
			paths.add(more);
		}
		if (paths.size() != paths.stream().distinct().count()) {
			throw new IllegalArgumentException("each route once: " + paths + " names one twice");
		}
		return new Sweep(first.mix, (paths.size() > 1) ? "sweep" : first.name, first.maxUsers, first.requestTimeout,
				first.service, first.downstream, first.warmUpAtMost, first.checks, first.own,
				(paths.size() > 1) ? paths : List.of());
	}

	/**
	 * A sweep of a mix of requests to {@code service} (method, headers, body, weights),
	 * up to {@value #DEFAULT_MAX_USERS} users, reading everything the service shows: each
	 * step's users draw their requests from the mix, and each step's result has every
	 * route's figures ({@link LoadResult#byRoute()}).
	 */
	public static Sweep of(AbstractServiceContainer<?> service, Request... mix) {
		if (service == null) {
			throw new IllegalArgumentException("a sweep of a service needs the service's container");
		}
		return of(mix).watching(service);
	}

	/**
	 * A sweep of the route {@code target} of a service the kit does not see (no
	 * container): throughput and latency only.
	 */
	public static Sweep of(URI target) {
		return of(Request.get(target)).named("sweep " + target.getPath());
	}

	/**
	 * A sweep of a mix of requests to a service the kit does not see: throughput, latency
	 * and errors only.
	 */
	public static Sweep of(Request... mix) {
		if (mix == null || mix.length == 0) {
			throw new IllegalArgumentException("a sweep needs at least one request to send");
		}
		return new Sweep(List.of(mix), "sweep " + mix[0].name(), DEFAULT_MAX_USERS,
				ClosedLoopLoad.DEFAULT_REQUEST_TIMEOUT, null, null, WarmUp.DEFAULT_AT_MOST);
	}

	/** A name for logs and reports. */
	public Sweep named(String name) {
		return new Sweep(this.mix, name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks, this.own, this.routes);
	}

	/**
	 * The users of the last step, 2 to 4096 (steps double from one);
	 * {@value #DEFAULT_MAX_USERS} unless told.
	 */
	public Sweep upToUsers(int users) {
		return new Sweep(this.mix, this.name, Knobs.between("users", users, 2, 4096), this.requestTimeout, this.service,
				this.downstream, this.warmUpAtMost, this.checks, this.own, this.routes);
	}

	/**
	 * How long one request may take before it counts as a {@code timeout}, 1 ms to 10
	 * min; 60 s unless told.
	 */
	public Sweep requestTimeout(Duration timeout) {
		return new Sweep(this.mix, this.name, this.maxUsers,
				Knobs.between("requestTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(10)), this.service,
				this.downstream, this.warmUpAtMost, this.checks, this.own, this.routes);
	}

	/**
	 * The longest the warm-up before the first step may last, 0 (none) to 5 min; 3
	 * minutes unless told. It ends as soon as the service's JIT compilers are quiet and a
	 * request's CPU stopped falling.
	 */
	public Sweep warmUpAtMost(Duration atMost) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				Knobs.between("warmUpAtMost", atMost, Duration.ZERO, Duration.ofMinutes(5)), this.checks, this.own,
				this.routes);
	}

	/**
	 * Puts the verdict to the test: when it names a resource whose knob the kit knows
	 * (Hikari's and Tomcat's and Jetty's sizes, the carriers, the default Reactor Netty
	 * pool, a container's CPU limit), the service starts again with that limit doubled,
	 * and the knee's step and the next doubling are measured: one start and two steps.
	 * Before {@link #run()} returns, the service is put back as the test configured it (a
	 * second start), so that what uses it afterwards meets it as configured.
	 * {@link SweepResult#confirmation()} says whether the ceiling rose as the model
	 * predicts; an assertion that the sweep is capped by the resource fails when it did
	 * not.
	 */
	public Sweep confirming() {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.confirming(Optional.empty()), this.own, this.routes);
	}

	/**
	 * Puts the verdict to the test with {@code knob}: for a resource whose knob only the
	 * service knows (an HttpClient pool, a lock, a client's pool), or to show that
	 * another resource's knob does not move the ceiling.
	 */
	public Sweep confirming(Knob knob) {
		if (knob == null) {
			throw new IllegalArgumentException("confirming needs a knob; confirming() turns the resource's own");
		}
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.confirming(Optional.of(knob)), this.own, this.routes);
	}

	/**
	 * Teaches the sweep a limit only the team's service has ({@link Resource#own}): its
	 * meters are read at every step, and it is weighed first when the sweep names the
	 * cap, in the team's words, with its model.
	 */
	public Sweep knowing(Resource.Own... own) {
		List<Resource.Own> all = new ArrayList<>(this.own);
		for (Resource.Own one : own) {
			if (one == null) {
				throw new IllegalArgumentException("knowing needs resources, e.g. Resource.own(\"renderers\")");
			}
			all.add(one.checked());
		}
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks, all, this.routes);
	}

	/**
	 * Searches, after the steps, for the smallest limit of the resource the verdict names
	 * that lets the route reach {@code rps}: the model (the ceiling scales with the
	 * limit) picks the limit, the service starts with it and the two steps of a
	 * confirmation measure it; a limit that falls short is raised by what it missed and
	 * tried again, at most three starts. No start is spent when the next cap lies below
	 * {@code rps}. {@link SweepResult#search()} says what was found and in how many
	 * starts.
	 */
	public Sweep reaching(double rps) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.reaching(Knobs.between("rps", rps, 0.1, 1_000_000)), this.own,
				this.routes);
	}

	/**
	 * Measures the service side by side with {@code baseImage} (A, e.g. main's image of
	 * the same service; the test's own service is B): the base starts configured as the
	 * service is, the knee is searched once on the pair with their steps in turn, and
	 * interleaved blocks at the knee and the ceiling give each figure as a ratio B / A
	 * with a 95 % interval ({@link SweepResult#comparison()}). The run-wide switch
	 * {@code -Dbottleneck.against=IMAGE} (or {@code BOTTLENECK_AGAINST}) does the same
	 * for every sweep of a service whose image is of the same repository.
	 */
	public Sweep against(String baseImage) {
		if (baseImage == null || baseImage.isBlank()) {
			throw new IllegalArgumentException("against needs the base image, e.g. registry.example.com/orders:main");
		}
		return against(DockerImageName.parse(baseImage));
	}

	/** {@link #against(String)} with the image's name parsed. */
	public Sweep against(DockerImageName baseImage) {
		if (this.service == null) {
			throw new IllegalArgumentException(
					"an A/B sweep starts the base beside the service: sweep a service container (Sweep.of(service, path))");
		}
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.against(baseImage), this.own, this.routes);
	}

	/**
	 * The time an A/B guard ({@link #against(String)}) may spend after both images
	 * started, its warm-ups, knee, settling and blocks, for all its routes:
	 * {@code against(image).within(Duration.ofMinutes(3))}. It stops as soon as it knows,
	 * red or green; a guard whose budget ends first is unresolved, never green. 5 minutes
	 * unless told.
	 */
	public Sweep within(Duration budget) {
		if (budget == null || budget.isNegative() || budget.isZero()) {
			throw new IllegalArgumentException(
					"within needs a guard's budget above zero, e.g. Duration.ofMinutes(5); was " + budget);
		}
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.guard(this.checks.guard().within(budget)), this.own, this.routes);
	}

	/**
	 * The change an A/B guard ({@link #against(String)}) tells apart:
	 * {@code tolerating(withPercentage(5))}. It stops once each throughput figure's
	 * interval lies beyond the bound (red) or within it (green: no change beyond it), and
	 * {@code assertThat(result).hasNotRegressedAgainstItsBase()} reads it there. 2 %
	 * unless told ({@link ABComparison#DEFAULT_BOUND}); a wider bound resolves sooner, a
	 * route the CPU caps resolves about ±3 % in the default budget.
	 */
	public Sweep tolerating(Percentage bound) {
		if (bound == null || bound.value <= 0 || bound.value >= 100) {
			throw new IllegalArgumentException(
					"tolerating needs a bound between 0 and 100 %, e.g. withPercentage(2); was " + bound);
		}
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, this.checks.guard(this.checks.guard().tolerating(bound.value / 100)), this.own,
				this.routes);
	}

	/**
	 * Reads the service in {@code container} at every step: its meters, threads, pinned
	 * virtual threads, connections and CPU ({@link #of(AbstractServiceContainer, String)}
	 * does this already).
	 */
	Sweep watching(AbstractServiceContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, container, this.downstream,
				this.warmUpAtMost, this.checks, this.own, this.routes);
	}

	/**
	 * Reads the service's downstream too (its Spring Boot meters and CPU), so that the
	 * verdict can name the downstream's own cap.
	 */
	public Sweep watchingDownstream(GenericContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, container,
				this.warmUpAtMost, this.checks, this.own, this.routes);
	}

	/**
	 * Warms the service up, runs the steps and names the cap; when asked, puts the
	 * verdict to the test ({@link #confirming()}) and searches for a limit
	 * ({@link #reaching(double)}), then puts the service back as the test configured it.
	 */
	public SweepResult run() {
		if (!this.routes.isEmpty()) {
			throw new IllegalStateException("a sweep of " + this.routes.size() + " routes " + this.routes
					+ " hands back a result a route: call runEach()");
		}
		SweepRun run = sweepRun();
		Optional<PairRun.Measured> pair = baseImage()
			.map((image) -> new PairRun(this.service, image, this.checks.guard()).measure(run));
		return concluded(run, pair);
	}

	/**
	 * Runs each route's sweep, one after the other, and hands back their results in the
	 * routes' order ({@link #of(AbstractServiceContainer, String, String...)}); a sweep
	 * of one route hands back its one result. Against a base image, both images start
	 * once for all the routes, and the console prints a table: each route's ceiling B / A
	 * with its interval, the spread of one block (what the run could resolve) and its
	 * verdict.
	 */
	public List<SweepResult> runEach() {
		List<Sweep> each = this.routes.isEmpty() ? List.of(this) : this.routes.stream().map(this::route).toList();
		Optional<DockerImageName> base = baseImage();
		if (base.isEmpty()) {
			return each.stream().map(Sweep::run).toList();
		}
		List<SweepRun> runs = each.stream().map(Sweep::sweepRun).toList();
		List<PairRun.Measured> pairs = new PairRun(this.service, base.get(), this.checks.guard()).measureEach(runs);
		List<SweepResult> results = new ArrayList<>();
		for (int index = 0; index < each.size(); index++) {
			results.add(each.get(index).concluded(runs.get(index), Optional.of(pairs.get(index))));
		}
		if (results.size() > 1) {
			routesTable(results).forEach((line) -> Console.line(this.name + ": " + line));
		}
		return List.copyOf(results);
	}

	/**
	 * The routes of one guard as a table, a line each: the route, its ceiling B / A with
	 * its 95 % interval, the spread of one block (the noise floor: what the run could
	 * resolve), its blocks, its time and its verdict at its guard's bound; a route
	 * without a comparison says so.
	 */
	static List<String> routesTable(List<SweepResult> routes) {
		int width = routes.stream().mapToInt((route) -> route.name().length()).max().orElse(5);
		String row = "%-" + width + "s  %-24s  %-9s  %6s  %5s  %s";
		List<String> lines = new ArrayList<>();
		lines.add(String.format(Locale.ROOT, "%d routes, each B against A at one start of both:", routes.size()));
		lines.add(
				String.format(Locale.ROOT, row, "route", "ceiling B/A (95 %)", "a block", "blocks", "took", "verdict"));
		for (SweepResult route : routes) {
			Optional<ABComparison> compared = route.comparison();
			Optional<ABComparison.Figure> ceiling = compared.flatMap((c) -> c.figure("ceiling"));
			lines.add(String.format(Locale.ROOT, row, route.name(),
					ceiling.map(ABComparison.Figure::interval).orElse("-"),
					ceiling.map(ABComparison.Figure::spread).orElse("-"),
					compared.map((c) -> Integer.toString(c.blocks())).orElse("-"),
					compared.map((c) -> c.took().toSeconds() + " s").orElse("-"),
					compared.map(ABComparison::outcome).orElse("not compared")));
		}
		return lines;
	}

	/** This sweep of several routes on {@code path} alone, named for it. */
	private Sweep route(String path) {
		return new Sweep(List.of(Request.get(this.service.uri(path))), this.name + " " + path, this.maxUsers,
				this.requestTimeout, this.service, this.downstream, this.warmUpAtMost, this.checks, this.own,
				List.of());
	}

	private SweepRun sweepRun() {
		return new SweepRun(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUpAtMost, known());
	}

	/** The base the sweep is measured against, named by the test or the run. */
	private Optional<DockerImageName> baseImage() {
		return this.checks.against().or(() -> RunWide.against(this.service, this.name));
	}

	/**
	 * The analysis of what {@code run} (and the pair, when against a base) measured, the
	 * knobs turned when asked, as a result.
	 */
	private SweepResult concluded(SweepRun run, Optional<PairRun.Measured> pair) {
		Readings readings = pair.map(PairRun.Measured::head).orElseGet(run::measure);
		Analysis analysis = Attribution.of(readings, known());
		Optional<ABComparison> comparison = pair.map((measured) -> measured
			.compared(Attribution.of(measured.base(), known()).verdict(), analysis.verdict()));
		comparison.ifPresent((compared) -> compared.toString()
			.lines()
			.forEach((line) -> Console.line(this.name + ": " + line.strip())));
		Console.line(this.name + ": " + analysis.verdict().line());
		Console.line(this.name + ": warm: " + readings.warmth());
		readings.meters().ifPresent((where) -> Console.line(this.name + ": meters: read from " + where));
		readings.blind().forEach((line) -> Console.line(this.name + ": blind: " + line));
		if (!this.checks.confirming()) {
			analysis.nextCap().ifPresent((next) -> Console.line(this.name + ": next: " + next));
		}
		Optional<Confirmation> confirmation = Optional.empty();
		Optional<Search> search = Optional.empty();
		if (this.checks.any() && (!(analysis.verdict() instanceof Verdict.Capped) || this.service == null)) {
			Console.line(this.name + ": not put to the test: the verdict names no resource of a service the kit"
					+ " can start again");
		}
		else if (this.checks.any()) {
			Verdict.Capped capped = (Verdict.Capped) analysis.verdict();
			try (KnobTurns turns = new KnobTurns(run, readings, analysis)) {
				confirmation = confirm(turns, capped);
				if (this.checks.reaching().isPresent()) {
					Optional<Verdict.Bound> next = confirmation.map(Confirmation::nextCap).orElse(analysis.nextCap());
					Search searched = turns.search(capped, this.checks.reaching().getAsDouble(), next);
					Console.line(this.name + ": " + searched.line());
					search = Optional.of(searched);
				}
			}
		}
		return new SweepResult(this.name, run.target(), readings, analysis, confirmation, search, comparison);
	}

	/** The confirmation, when asked for and a knob of the capped resource is known. */
	private Optional<Confirmation> confirm(KnobTurns turns, Verdict.Capped capped) {
		if (!this.checks.confirming()) {
			return Optional.empty();
		}
		Optional<Knob> knob = this.checks.knob()
			.or(() -> ResourceKinds.doubling(capped, this.service))
			.or(() -> ownKnob(capped));
		if (knob.isEmpty()) {
			Console.line(this.name + ": not put to the test: the kit knows no knob of the "
					+ capped.resource().description() + "; pass the service's own with confirming(Knob)");
			return Optional.empty();
		}
		Confirmation confirmation = turns.confirm(knob.get());
		Console.line(this.name + ": " + confirmation.line());
		confirmation.nextCap()
			.ifPresent((next) -> Console.line(this.name + ": next, with " + confirmation.knob() + ": " + next));
		return Optional.of(confirmation);
	}

	/**
	 * The knob of a resource of the team's own that {@code capped} names, doubling its
	 * limit, where the test or its kind gave one ({@link Resource.Own#turnedBy}).
	 */
	private Optional<Knob> ownKnob(Verdict.Capped capped) {
		double limit = capped.model().limit();
		return known().stream()
			.filter((own) -> capped.resource() == Resource.OWN && capped.where().equals(Optional.of(own.words())))
			.flatMap((own) -> own.knob().stream())
			.findFirst()
			.map((family) -> family.at(2 * limit, limit));
	}

	/**
	 * The resources of the team's own this sweep knows: the test's declarations, then
	 * every registered {@link Kind} whose words the test did not declare.
	 */
	List<Resource.Own> known() {
		List<Resource.Own> known = new ArrayList<>(this.own);
		for (Resource.Own kind : registered()) {
			if (known.stream().noneMatch((own) -> own.words().equals(kind.words()))) {
				known.add(kind);
			}
		}
		return known;
	}

	/**
	 * The resources of every {@link Kind} the class path registers, each checked: a kind
	 * that could never name its resource fails in one line naming it.
	 */
	static List<Resource.Own> registered() {
		List<Resource.Own> all = new ArrayList<>();
		for (Kind kind : ServiceLoader.load(Kind.class, Thread.currentThread().getContextClassLoader())) {
			Resource.Own own = kind.resource();
			if (own == null) {
				throw new IllegalStateException(kind.getClass().getName() + ".resource() returned null");
			}
			try {
				all.add(own.checked().declaredBy(kind.getClass()));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalStateException(kind.getClass().getName() + ": " + ex.getMessage(), ex);
			}
		}
		return all;
	}

}
