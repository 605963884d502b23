package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.internal.Budget;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.Phases;
import dev.bottleneckkit.internal.PutBack;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.probe.OutboundConnections;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import dev.bottleneckkit.sweep.SweepResult.Confirmation;
import dev.bottleneckkit.sweep.SweepResult.Search;
import dev.bottleneckkit.sweep.SweepResult.WarmUp;
import dev.bottleneckkit.sweep.Verdict.Capped;
import org.testcontainers.containers.GenericContainer;

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
 * Step lengths follow the route: once the first step has measured one user's latency W₁,
 * each step warms up for two W₁ or the last step's latency (0.5 to 3 s), then measures
 * until every user has gone through {@value #CYCLES} whole cycles (at least 1 s, at most
 * {@value #MAX_WINDOW_SECONDS} s). The sweep runs as one load run: container starts of
 * scenarios side by side wait for it.
 */
public final class Sweep {

	/** Users of the last step unless told. */
	public static final int DEFAULT_MAX_USERS = 64;

	/**
	 * Whole cycles every user goes through in a step's window: its throughput is known
	 * from them.
	 */
	static final int CYCLES = 2;

	/**
	 * The longest a step's window lasts when some user answers too seldom for
	 * {@value #CYCLES} cycles.
	 */
	static final int MAX_WINDOW_SECONDS = 6;

	/**
	 * Thread dumps in a step whose first dump shows request threads waiting for a pooled
	 * connection (the pool's holders are counted by what most of them say), or a web
	 * server's worker pool with none idle (its size is the most seen serving at once).
	 */
	static final int POOL_DUMPS = 3;

	/** A doubling of the users that raises throughput by less than this share is flat. */
	static final double FLAT_GAIN = 1.15;

	/** ... when latency grew by at least this factor: the extra users queued. */
	static final double QUEUED_LATENCY = 1.5;

	/**
	 * ... or when at least this share of a step's answers were errors: the extra users
	 * were turned away.
	 */
	static final double REJECTED_SHARE = 0.1;

	private final List<Request> mix;

	/** Where the mix goes: its first request's URI, for logs and results. */
	private final URI target;

	private final String name;

	private final int maxUsers;

	private final Duration requestTimeout;

	private final AbstractServiceContainer<?> service;

	private final GenericContainer<?> downstream;

	private final WarmUp.Rule warmUp;

	/**
	 * What is done after the steps: the verdict put to the test, a limit searched for.
	 */
	private final Checks checks;

	/**
	 * What a sweep does after its steps with the service's knobs.
	 *
	 * @param confirming whether the verdict is put to the test by turning its resource's
	 * knob
	 * @param knob the knob to turn, when not the resource's own
	 * @param reaching the throughput whose smallest limit is searched for
	 */
	private record Checks(boolean confirming, Optional<Knob> knob, OptionalDouble reaching) {

		static final Checks NONE = new Checks(false, Optional.empty(), OptionalDouble.empty());

		Checks confirming(Optional<Knob> knob) {
			return new Checks(true, knob, this.reaching);
		}

		Checks reaching(double rps) {
			return new Checks(this.confirming, this.knob, OptionalDouble.of(rps));
		}

		boolean any() {
			return this.confirming || this.reaching.isPresent();
		}

	}

	private Sweep(List<Request> mix, String name, int maxUsers, Duration requestTimeout,
			AbstractServiceContainer<?> service, GenericContainer<?> downstream, WarmUp.Rule warmUp) {
		this(mix, name, maxUsers, requestTimeout, service, downstream, warmUp, Checks.NONE);
	}

	private Sweep(List<Request> mix, String name, int maxUsers, Duration requestTimeout,
			AbstractServiceContainer<?> service, GenericContainer<?> downstream, WarmUp.Rule warmUp, Checks checks) {
		this.checks = checks;
		this.mix = List.copyOf(mix);
		this.target = mix.get(0).uri();
		this.name = name;
		this.maxUsers = maxUsers;
		this.requestTimeout = requestTimeout;
		this.service = service;
		this.downstream = downstream;
		this.warmUp = warmUp;
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
				ClosedLoopLoad.DEFAULT_REQUEST_TIMEOUT, null, null, WarmUp.Rule.DEFAULT);
	}

	/** A name for logs and reports. */
	public Sweep named(String name) {
		return new Sweep(this.mix, name, this.maxUsers, this.requestTimeout, this.service, this.downstream, this.warmUp,
				this.checks);
	}

	/** The users of the last step, 2 to 4096 (steps double from one). */
	public Sweep upToUsers(int users) {
		return new Sweep(this.mix, this.name, Knobs.between("users", users, 2, 4096), this.requestTimeout, this.service,
				this.downstream, this.warmUp, this.checks);
	}

	/**
	 * How long one request may take before it counts as a {@code timeout}, 1 ms to 10
	 * min.
	 */
	public Sweep requestTimeout(Duration timeout) {
		return new Sweep(this.mix, this.name, this.maxUsers,
				Knobs.between("requestTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(10)), this.service,
				this.downstream, this.warmUp, this.checks);
	}

	/**
	 * The longest the warm-up before the first step may last, 0 (none) to 5 min; 20 s
	 * unless told. It ends as soon as the route's latency settles.
	 */
	public Sweep warmUpAtMost(Duration atMost) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUp.atMost(Knobs.between("warmUpAtMost", atMost, Duration.ZERO, Duration.ofMinutes(5))),
				this.checks);
	}

	/**
	 * Puts the verdict to the test: when it names a resource whose knob the kit knows
	 * (Hikari's and Tomcat's and Jetty's sizes, the carriers, the default Reactor Netty
	 * pool, a container's CPU limit), the service starts again with that limit doubled,
	 * and the knee's step and the next doubling are measured: one start and two steps.
	 * The service goes back as the test configured it before anything uses it again (a
	 * second start only then). {@link SweepResult#confirmation()} says whether the
	 * ceiling rose as the model predicts; an assertion that the sweep is capped by the
	 * resource fails when it did not.
	 */
	public Sweep confirming() {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUp, this.checks.confirming(Optional.empty()));
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
				this.warmUp, this.checks.confirming(Optional.of(knob)));
	}

	/**
	 * Searches, after the steps, for the smallest limit of the resource the verdict names
	 * that lets the route reach {@code rps}: the model (the ceiling scales with the
	 * limit) picks the limit, the service starts with it and the two steps of a
	 * confirmation measure it; a limit that falls short is raised by what it missed and
	 * tried again, at most {@value #SEARCH_STARTS} starts. No start is spent when the
	 * next cap lies below {@code rps}. {@link SweepResult#search()} says what was found
	 * and in how many starts.
	 */
	public Sweep reaching(double rps) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.warmUp, this.checks.reaching(Knobs.between("rps", rps, 0.1, 1_000_000)));
	}

	/**
	 * Reads the service in {@code container} at every step: its meters, threads, pinned
	 * virtual threads, connections and CPU ({@link #of(AbstractServiceContainer, String)}
	 * does this already).
	 */
	Sweep watching(AbstractServiceContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, container, this.downstream,
				this.warmUp, this.checks);
	}

	/**
	 * Reads the service's downstream too (its Spring Boot meters and CPU), so that the
	 * verdict can name the downstream's own cap.
	 */
	public Sweep watchingDownstream(GenericContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, container, this.warmUp,
				this.checks);
	}

	/**
	 * Warms the service up, runs the steps and names the cap; when asked, puts the
	 * verdict to the test ({@link #confirming()}).
	 */
	public SweepResult run() {
		SweepResult result = measure();
		if (!this.checks.any()) {
			return result;
		}
		if (!(result.verdict() instanceof Verdict.Capped capped) || this.service == null) {
			Console.line(this.name + ": not put to the test: the verdict names no resource of a service the kit"
					+ " can start again");
			return result;
		}
		// The service as the test configured it: every start with a knob begins from it.
		Settings configured = Settings.of(this.service);
		if (this.checks.confirming()) {
			Optional<Knob> turned = this.checks.knob().or(() -> Knob.doubling(capped, this.service));
			if (turned.isEmpty()) {
				Console.line(this.name + ": not put to the test: the kit knows no knob of the "
						+ capped.resource().description() + "; pass the service's own with confirming(Knob)");
			}
			else {
				Confirmation confirmation = confirm(result, turned.get(), configured);
				Console.line(this.name + ": " + confirmation.line());
				result = result.confirmedBy(confirmation);
				result.nextCap()
					.ifPresent((next) -> Console.line(this.name + ": next, with " + confirmation.knob() + ": " + next));
			}
		}
		if (this.checks.reaching().isPresent()) {
			Search search = search(result, capped, this.checks.reaching().getAsDouble(), configured);
			Console.line(this.name + ": " + search.line());
			result = result.searchedBy(search);
		}
		return result;
	}

	/** Starts with a limit the search may spend. */
	static final int SEARCH_STARTS = 3;

	/**
	 * The smallest limit of the resource {@code capped} names that reaches {@code target}
	 * rps, by the model first and by measurement after.
	 */
	private Search search(SweepResult result, Verdict.Capped capped, double target, Settings configured) {
		long started = System.nanoTime();
		Optional<Verdict.Bound> next = result.nextCap().filter((bound) -> bound.model().rps() < target);
		if (next.isPresent()) {
			return Search.unreachable(target, "the next cap, " + next.get() + ", lies below it");
		}
		Optional<Knob.Family> family = Knob.family(capped, this.service);
		if (family.isEmpty()) {
			return Search.unreachable(target,
					"the kit knows no knob of the " + capped.resource().description() + " to search");
		}
		double limit = capped.model().limit();
		double perUnit = result.ceiling() / limit;
		double value = firstLimit(target, perUnit, family.get().step());
		List<Search.Try> tries = new ArrayList<>();
		while (tries.size() < SEARCH_STARTS) {
			Knob knob = family.get().at(value, limit);
			Console.line(String.format(Locale.ROOT, "%s: searching for %.1f rps: %s (predicted %.1f rps)", this.name,
					target, knob.name(), value * perUnit));
			Confirmation measured = confirm(result, knob, configured);
			// The knob's factor does not go below 1: a smaller limit is predicted by the
			// ceiling a unit.
			Search.Try attempt = new Search.Try(knob.name(), value, Math.min(value * perUnit, measured.predicted()),
					measured.ceilingAfter());
			tries.add(attempt);
			if (attempt.reached(target)) {
				break;
			}
			value = nextLimit(value, target, measured.ceilingAfter(), family.get().step());
		}
		return new Search(target, perUnit, family.get().step(), tries, Optional.empty(),
				Duration.ofNanos(System.nanoTime() - started));
	}

	/**
	 * The limit the model gives for {@code target}: the ceiling scales with the limit,
	 * {@code perUnit} rps a unit, rounded up to {@code step}.
	 */
	static double firstLimit(double target, double perUnit, double step) {
		return roundUp(target / perUnit, step);
	}

	/**
	 * The limit after one that measured {@code measured} rps short of {@code target}:
	 * raised by the share it missed, and by one step at least.
	 */
	static double nextLimit(double tried, double target, double measured, double step) {
		double scaled = (measured > 0) ? tried * target / measured : 2 * tried;
		return Math.max(tried + step, roundUp(scaled, step));
	}

	private static double roundUp(double value, double step) {
		// A hair under a whole step is that step: 6.0000001 is 6, not 7.
		return Math.max(step, Math.ceil(value / step - 1e-9) * step);
	}

	/** The steps and the verdict. */
	private SweepResult measure() {
		if (this.service != null) {
			PutBack.ifPending(this.service);
		}
		long started = System.nanoTime();
		List<Step> steps = new ArrayList<>();
		boolean saturated = false;
		Optional<WarmUp> warmedUp;
		try (Probes probes = new Probes(this.service, this.downstream);
				Phases.Turn loading = Phases.enter(Phases.Phase.LOADING, this.name, 2);
				ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
			Console.line(String.format(Locale.ROOT, "%s: sweeping %s from 1 user, doubling up to %d", this.name,
					this.target, this.maxUsers));
			warmedUp = Budget.windowsAs(Budget.Category.WARM_UPS,
					() -> this.warmUp.run(this.mix, this.requestTimeout, this.name));
			warmedUp.ifPresent((w) -> Console.line(this.name + ": " + w));
			OptionalDouble lastBusy = OptionalDouble.empty();
			for (int users = 1; users <= this.maxUsers; users *= 2) {
				loading.weigh(Phases.stepWeight(users, lastBusy), this.name + ", " + users + " users");
				Budget.CpuSince cpu = Budget.cpuSince();
				Step step = step(users, steps, probes, background);
				lastBusy = cpu.busyShare();
				steps.add(step);
				Console.line(String.format(Locale.ROOT, "%s: %4d %-5s %8.1f rps  mean %5d ms  p99 %5d ms  %d errors",
						this.name, users, (users == 1) ? "user" : "users", step.throughput(),
						step.meanLatency().toMillis(), step.result().p99().toMillis(), step.result().errorCount()));
				if (step.result().generatorSaturated() || step.result().succeeded() == 0) {
					saturated = step.result().generatorSaturated() || steps.size() > 1;
					break;
				}
				if (steps.size() >= 2 && flat(steps.get(steps.size() - 2), step)) {
					saturated = true;
					break;
				}
			}
			SweepResult partial = new SweepResult(this.name, this.target, steps, saturated, null, warmedUp,
					probes.blind(), Duration.ofNanos(System.nanoTime() - started));
			Verdict verdict = Attribution.of(partial, probes.blind());
			SweepResult result = new SweepResult(this.name, this.target, steps, saturated, verdict, warmedUp,
					probes.blind(), Duration.ofNanos(System.nanoTime() - started));
			Console.line(this.name + ": " + verdict.line());
			probes.blind().forEach((line) -> Console.line(this.name + ": blind: " + line));
			if (!this.checks.confirming()) {
				result.nextCap().ifPresent((next) -> Console.line(this.name + ": next: " + next));
			}
			return result;
		}
	}

	/**
	 * Starts the service again with {@code knob} turned and measures the knee's step and
	 * the next doubling; the service goes back as it was before its next use.
	 */
	private Confirmation confirm(SweepResult result, Knob knob, Settings settings) {
		long started = System.nanoTime();
		Console.line(this.name + ": starting the service again with " + knob.name());
		AbstractServiceContainer<?> service = this.service;
		List<Step> steps = new ArrayList<>();
		Duration took;
		try {
			this.service.stop();
			// From the test's own settings: a search's second limit replaces its first.
			settings.restore(this.service);
			knob.turn().accept(this.service);
			Budget.time(Budget.Category.STARTS, this.service::start);
			steps.addAll(confirmationSteps(result, knob));
		}
		finally {
			took = Duration.ofNanos(System.nanoTime() - started);
			// Put back as it was before its next use, not now: a confirmation that is the
			// service's last use costs one start, not two.
			PutBack.beforeNextUse(service, () -> {
				Console.line(this.name + ": putting the service back as the test configured it (" + knob.name()
						+ " undone)");
				service.stop();
				settings.restore(service);
				Budget.time(Budget.Category.STARTS, service::start);
			});
		}
		return confirmation(result, knob.name(), knob.factor(), steps, took);
	}

	/**
	 * The confirmation's reading of {@code steps}, measured with a knob that turned the
	 * capped resource's limit {@code factor} times: the ceiling moved the knob's way or
	 * not, and the prediction it is held to, the lowest of the raised ceiling, the next
	 * cap as the best of these steps read it, and the users over W₁.
	 */
	static Confirmation confirmation(SweepResult result, String knob, double factor, List<Step> steps, Duration took) {
		double after = steps.stream().mapToDouble(Step::throughput).max().orElse(0);
		Optional<Step> best = steps.stream().max(Comparator.comparingDouble(Step::throughput));
		// A limit the knob raises scales the ceiling: what the resource delivered, times
		// the knob's factor (its model may lie a few per cent off the ceiling). Not the
		// CPU's: the CPU a request takes is a JVM's, and a JVM started on other CPUs is
		// another (its collector and compiler threads follow its CPUs, and one on a
		// single CPU warms slower: S9's took 72 to 91 ms a request at its knee on 1 CPU
		// in fresh runs, 69 to 82 on 1.5). The raised CPU's model is read on the knob's
		// own step.
		Optional<Verdict.Bound> cpu = result.verdict()
			.cap()
			.filter((cap) -> cap == Resource.CPU)
			.flatMap((cap) -> best.flatMap((step) -> Attribution.demand(step, Resource.CPU)));
		// Raised carriers share the same cores: each waits longer for one, and a carrier
		// is taken while it waits. Where the knob's own step read them holding a request
		// longer, their model there is the lower bound (under a busy loop on one core the
		// shop's /order made 116 rps on 4 carriers where twice the ceiling said 129.5,
		// ci55); where a warmer JVM made a request cheaper, the ceiling times the factor
		// stays the bound.
		Optional<Verdict.Bound> carriers = result.verdict()
			.cap()
			.filter((cap) -> cap == Resource.CARRIER_THREADS)
			.flatMap((cap) -> best.flatMap(Attribution::carriersAsRead))
			.filter((bound) -> bound.model().rps() < result.ceiling() * factor);
		Optional<String> raisedAsRead = cpu
			.map((bound) -> "the CPU with the knob turned, as its step read it, " + bound.model().explain())
			.or(() -> carriers.map(
					(bound) -> "the carriers with the knob turned, as its step read them, " + bound.model().explain()));
		double raised = cpu.or(() -> carriers).map((bound) -> bound.model().rps()).orElse(result.ceiling() * factor);
		String raisedBy = raisedAsRead.orElse(String.format(Locale.ROOT, "%s the ceiling of %.1f rps, the limit %s",
				(factor == 2) ? "twice" : Verdict.count(factor) + " ×", result.ceiling(),
				(factor == 2) ? "doubled" : "raised"));
		// The next cap as the best step with the knob turned read it: a model and the
		// figure it is compared with come from the same step.
		Optional<Verdict.Bound> next = best.flatMap((step) -> Attribution.nextCap(result, step))
			.filter((bound) -> bound.model().rps() < raised);
		double predicted = next.map((bound) -> bound.model().rps()).orElse(raised);
		String by = next.map((bound) -> "the next cap, " + bound).orElse(raisedBy);
		// The users of the last step bound it too: users / W₁ (Little's law, no queue).
		int users = steps.isEmpty() ? 0 : steps.get(steps.size() - 1).users();
		double byUsers = users / (result.oneUserLatency().toNanos() / 1e9);
		if (users > 0 && byUsers < predicted) {
			predicted = byUsers;
			by = String.format(Locale.ROOT, "the users, %d / W₁ %.3f s", users,
					result.oneUserLatency().toNanos() / 1e9);
		}
		double move = 1 + Confirmation.ROSE_PERCENT / 100.0;
		boolean moved = (factor < 1) ? after <= result.ceiling() / move : after >= move * result.ceiling();
		return new Confirmation(knob, moved, result.ceiling(), after, predicted, by, steps, took);
	}

	/**
	 * The users of the confirmation's two steps: the knee's and the next doubling, both
	 * doubled again when the knob doubles the limit, so that the users outnumber the
	 * raised limit (a knee at 2 users on 2 carriers, measured at 2 and 4 users on 4
	 * carriers, would show the users' cap, not the carriers').
	 */
	static List<Integer> confirmationUsers(int knee, Knob knob) {
		int first = (int) Math.min(4096, Math.round(knee * Math.max(1, Math.ceil(knob.factor()))));
		return List.of(first, Math.min(4096, 2 * first));
	}

	/** The knee's step and the next doubling, on the service with the knob turned. */
	private List<Step> confirmationSteps(SweepResult result, Knob knob) {
		// The service came back on a new port: the requests go there.
		Sweep moved = new Sweep(this.mix.stream().map((request) -> request.at(this.service.uri(""))).toList(),
				this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream, this.warmUp, this.checks);
		return moved.stepsWithKnob(result, knob);
	}

	private List<Step> stepsWithKnob(SweepResult result, Knob knob) {
		int knee = result.knee().map(Step::users).orElse(result.steps().get(result.steps().size() - 1).users());
		List<Step> steps = new ArrayList<>();
		try (Probes probes = new Probes(this.service, this.downstream);
				Phases.Turn loading = Phases.enter(Phases.Phase.LOADING, this.name + ", confirmation", 2);
				ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
			Budget
				.windowsAs(Budget.Category.WARM_UPS,
						() -> this.warmUp.run(this.mix, this.requestTimeout, this.name + ", confirmation"))
				.ifPresent((w) -> Console.line(this.name + ", confirmation: " + w));
			List<Step> context = new ArrayList<>(List.of(result.steps().get(0)));
			for (int users : confirmationUsers(knee, knob)) {
				Step step = step(users, context, probes, background);
				context.add(step);
				steps.add(step);
				Console.line(String.format(Locale.ROOT, "%s, %s: %4d users %8.1f rps  mean %5d ms", this.name,
						knob.name(), users, step.throughput(), step.meanLatency().toMillis()));
			}
		}
		return steps;
	}

	/**
	 * A container's environment and create-command modifiers before a knob was turned, to
	 * put it back as it was.
	 */
	private record Settings(Map<String, String> env, java.util.Set<?> modifiers) {

		static Settings of(AbstractServiceContainer<?> service) {
			return new Settings(new java.util.LinkedHashMap<>(service.getEnvMap()),
					new java.util.LinkedHashSet<>(service.getCreateContainerCmdModifiers()));
		}

		/**
		 * Puts the environment back as it was (the container's own map: values with an
		 * {@code =} in them, a JDBC URL's query, survive as they are), and drops the
		 * create-command modifiers the knob added.
		 */
		void restore(AbstractServiceContainer<?> service) {
			service.getEnvMap().clear();
			service.getEnvMap().putAll(this.env);
			service.getCreateContainerCmdModifiers().retainAll(this.modifiers);
		}

	}

	/**
	 * Doubling the users gained less than {@value #FLAT_GAIN}x throughput while the extra
	 * users queued (latency grew {@value #QUEUED_LATENCY}x) or were turned away (at least
	 * {@value #REJECTED_SHARE} of the answers were errors, more than before: a pool with
	 * a pending limit fails the extra users fast instead of making them wait).
	 */
	static boolean flat(Step before, Step after) {
		if (after.throughput() >= FLAT_GAIN * before.throughput()) {
			return false;
		}
		// Queued: the mean latency grew, or, by Little's law, the time each user's
		// request took (users / throughput) did. Under CPU pressure a queue stops being
		// fair: the answers that come back are the quick ones, and only users /
		// throughput shows the wait.
		boolean queued = after.meanLatency().toNanos() >= QUEUED_LATENCY * before.meanLatency().toNanos()
				|| cycle(after) >= QUEUED_LATENCY * cycle(before);
		return queued || (errorShare(after) >= REJECTED_SHARE && errorShare(after) > errorShare(before));
	}

	/**
	 * Seconds per request per user by Little's law: users / throughput; infinite without
	 * answers.
	 */
	private static double cycle(Step step) {
		return (step.throughput() <= 0) ? Double.POSITIVE_INFINITY : step.users() / step.throughput();
	}

	private static double errorShare(Step step) {
		long completed = step.result().completed();
		return (completed == 0) ? 0 : step.result().errorCount() / (double) completed;
	}

	private Step step(int users, List<Step> before, Probes probes, ExecutorService background) {
		Duration w1 = before.isEmpty() ? null : before.get(0).meanLatency();
		Duration lastLatency = before.isEmpty() ? Duration.ZERO : before.get(before.size() - 1).meanLatency();
		Duration warmUp = (w1 == null) ? Duration.ofSeconds(1)
				: clamp(max(w1.multipliedBy(2), lastLatency), Duration.ofMillis(500), Duration.ofSeconds(3));
		// A thread dump halfway through the window this step is likely to have: its
		// users' cycles, twice the last step's latency once the users queue. Two more
		// when it shows a pool's waiters: a dump is taken thread by thread, and the
		// pool's holders are counted by what most dumps say.
		Duration likelyWindow = clamp(lastLatency.multipliedBy(2L * (CYCLES + 1)), Duration.ofSeconds(1),
				Duration.ofSeconds(MAX_WINDOW_SECONDS));
		probes.beginStep();
		long wallStart = System.nanoTime();
		Future<List<ThreadDump>> dump = background.submit(() -> {
			Thread.sleep(warmUp.plus(likelyWindow.dividedBy(2)));
			List<ThreadDump> dumps = new ArrayList<>();
			probes.dump().ifPresent(dumps::add);
			while (!dumps.isEmpty() && dumps.size() < POOL_DUMPS && (Attribution.waitsForAPooledConnection(dumps.get(0))
					|| Attribution.showsABusyWorkerPool(dumps.get(0)))) {
				Thread.sleep(likelyWindow.dividedBy(8));
				Optional<ThreadDump> another = probes.dump();
				if (another.isEmpty()) {
					break;
				}
				dumps.add(another.get());
			}
			return dumps;
		});

		LoadResult result = ClosedLoopLoad.users(users)
			.warmUp(warmUp)
			.forCycles(CYCLES, Duration.ofSeconds(MAX_WINDOW_SECONDS))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + users + (users == 1 ? " user" : " users"))
			.quiet()
			.run(this.mix.toArray(Request[]::new));

		long wallEnd = System.nanoTime();
		return probes.endStep(users, result, wallStart, wallStart + warmUp.toNanos(), wallEnd, join(dump));
	}

	private static List<ThreadDump> join(Future<List<ThreadDump>> dumps) {
		try {
			return dumps.get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			return List.of();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return List.of();
		}
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	static Duration clamp(Duration value, Duration min, Duration max) {
		return (value.compareTo(min) < 0) ? min : (value.compareTo(max) > 0) ? max : value;
	}

	/**
	 * The probes of one sweep, on the service it loads: each that cannot see says so in
	 * one line ({@link #blind()}), once, and the sweep goes on without it.
	 */
	private static final class Probes implements AutoCloseable {

		private final AbstractServiceContainer<?> service;

		private final GenericContainer<?> downstream;

		private final Set<String> blind = new LinkedHashSet<>();

		private ServiceGauges serviceGauges;

		private ServiceGauges downstreamGauges;

		private ThreadDumpProbe threads;

		private PinningProbe pinning;

		private OptionalInt carriers = OptionalInt.empty();

		private OutboundConnections connections;

		private MachineCpu cpu;

		private MachineCpu.Reading cpuBefore;

		private CarrierTime carriersBefore;

		Probes(AbstractServiceContainer<?> service, GenericContainer<?> downstream) {
			this.service = service;
			this.downstream = downstream;
			if (service != null) {
				Budget.time(Budget.Category.PROBES, this::open);
			}
		}

		private void open() {
			AbstractServiceContainer<?> service = this.service;
			GenericContainer<?> downstream = this.downstream;
			Optional<JmxAgent> jmx = JmxAgent.of(service);
			if (jmx.isEmpty()) {
				this.blind.add("thread dumps, pinned threads and carriers: the service's JMX agent is off"
						+ " (withoutJmx()); leave it on to see locks, thread pools and pinning");
			}
			else {
				this.threads = ThreadDumpProbe.on(service);
				try {
					this.pinning = PinningProbe.on(service).withThreshold(Duration.ZERO).start();
					this.carriers = this.pinning.carriers();
				}
				catch (RuntimeException ex) {
					this.pinning = null;
					this.blind.add("pinned threads and carriers: JMX at " + jmx.get() + " refused the recording ("
							+ rootMessage(ex) + "); a JVM with jdk.management.jfr is needed");
				}
			}
			try {
				this.cpu = MachineCpu.around(service, Optional.ofNullable(downstream));
			}
			catch (RuntimeException ex) {
				this.blind.add("CPU: not read (" + rootMessage(ex) + ")");
			}
			try {
				this.connections = OutboundConnections.of(service).start();
			}
			catch (RuntimeException ex) {
				this.blind.add("outbound connections: the socket reader did not start (" + rootMessage(ex)
						+ "); pools without meters cannot be seen");
			}
		}

		List<String> blind() {
			return List.copyOf(this.blind);
		}

		void beginStep() {
			Budget.time(Budget.Category.PROBES, this::beginReadings);
		}

		private void beginReadings() {
			if (this.service != null) {
				this.serviceGauges = ServiceGauges.on(this.service).start();
			}
			if (this.downstream instanceof DownstreamContainer standIn) {
				standIn.resetInFlight();
			}
			else if (this.downstream instanceof AbstractServiceContainer<?> service) {
				this.downstreamGauges = ServiceGauges.on(service).start();
			}
			else if (this.downstream != null) {
				this.downstreamGauges = ServiceGauges.at(uriOf(this.downstream)).start();
			}
			if (this.pinning != null) {
				try {
					this.pinning.drain();
				}
				catch (RuntimeException ex) {
					this.blind.add("pinned threads: the recording could not be read (" + rootMessage(ex) + ")");
					this.pinning = null;
				}
			}
			this.cpuBefore = read(this.cpu);
			this.carriersBefore = carrierTime();
		}

		/**
		 * The carriers' time so far (on a core or waiting for one, else their CPU), with
		 * when it was read; null where not read.
		 */
		private CarrierTime carrierTime() {
			if (this.pinning == null) {
				return null;
			}
			return this.pinning.carrierTimeNanos()
				.map((nanos) -> new CarrierTime(System.nanoTime(), nanos))
				.orElse(null);
		}

		private record CarrierTime(long at, Map<Long, Long> nanos) {

			OptionalDouble coresSince(CarrierTime before) {
				return (before == null) ? OptionalDouble.empty() : OptionalDouble
					.of(PinningProbe.carrierCores(before.nanos(), this.nanos(), (this.at() - before.at()) / 1e9));
			}

		}

		Optional<ThreadDump> dump() {
			if (this.threads == null) {
				return Optional.empty();
			}
			try {
				return Optional.of(this.threads.take());
			}
			catch (RuntimeException ex) {
				this.blind.add("thread dumps: " + rootMessage(ex)
						+ "; locks, thread pools and pools without meters cannot be seen");
				this.threads = null;
				return Optional.empty();
			}
		}

		Step endStep(int users, LoadResult result, long wallStart, long windowStart, long wallEnd,
				List<ThreadDump> dumps) {
			return Budget.time(Budget.Category.PROBES,
					() -> readStep(users, result, wallStart, windowStart, wallEnd, dumps));
		}

		private Step readStep(int users, LoadResult result, long wallStart, long windowStart, long wallEnd,
				List<ThreadDump> dumps) {
			MachineCpu.Reading cpuAfter = read(this.cpu);
			CarrierTime carriersAfter = carrierTime();
			GaugeTimeline service = (this.serviceGauges != null) ? this.serviceGauges.stop()
					: new GaugeTimeline(Map.of());
			if (this.serviceGauges != null) {
				this.serviceGauges.blind().ifPresent(this.blind::add);
			}
			GaugeTimeline downstream = (this.downstreamGauges != null) ? this.downstreamGauges.stop()
					: new GaugeTimeline(Map.of());
			List<PinnedEvent> pinned = List.of();
			if (this.pinning != null) {
				try {
					pinned = this.pinning.drain();
				}
				catch (RuntimeException ex) {
					this.blind.add("pinned threads: the recording could not be read (" + rootMessage(ex) + ")");
					this.pinning = null;
				}
			}
			Optional<MachineCpu.Use> cpu = (this.cpuBefore != null && cpuAfter != null)
					? Optional.of(this.cpu.between(this.cpuBefore, cpuAfter)) : Optional.empty();
			List<OutboundConnections.Destination> seen = (this.connections != null)
					? this.connections.between(windowStart, wallEnd) : List.of();
			if (this.connections != null && this.connections.readings() == 0) {
				this.blind.add("outbound connections: the socket reader gave no reading; pools without meters cannot"
						+ " be seen");
			}
			Optional<DownstreamContainer.InFlight> standIn = (this.downstream instanceof DownstreamContainer stub)
					? Optional.of(stub.inFlight()) : Optional.empty();
			OptionalDouble carrierCores = (carriersAfter != null) ? carriersAfter.coresSince(this.carriersBefore)
					: OptionalDouble.empty();
			return new Step(users, result, service, downstream, cpu, pinned, this.carriers, dumps, seen,
					Duration.ofNanos(wallEnd - wallStart), standIn, carrierCores);
		}

		private MachineCpu.Reading read(MachineCpu machine) {
			if (machine == null) {
				return null;
			}
			try {
				return machine.read();
			}
			catch (RuntimeException ex) {
				this.blind.add("CPU: not read (" + rootMessage(ex) + ")");
				this.cpu = null;
				return null;
			}
		}

		@Override
		public void close() {
			if (this.pinning != null) {
				this.pinning.close();
			}
			if (this.threads != null) {
				this.threads.close();
			}
			if (this.connections != null) {
				this.connections.close();
			}
		}

		private static URI uriOf(GenericContainer<?> container) {
			if (container instanceof AbstractServiceContainer<?> service) {
				return service.uri("");
			}
			int port = container.getExposedPorts().get(0);
			return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(port));
		}

		private static String rootMessage(Throwable failure) {
			Throwable root = failure;
			while (root.getCause() != null && root.getCause() != root) {
				root = root.getCause();
			}
			return String.valueOf(root.getMessage());
		}

	}

	/**
	 * A setting of the service that raises one resource's limit, for a sweep to prove its
	 * verdict by changing it ({@link Sweep#confirming(Knob)}): the sweep starts the
	 * service again with the knob turned, measures the knee's step and the next doubling,
	 * and says whether the ceiling moved as the model predicts.
	 *
	 * <pre>{@code
	 * Sweep.of(orders, "/orders/42").confirming().run();                        // the named resource's own knob
	 * Sweep.of(orders, "/price").confirming(Knob.springProperty("HttpClient pool 10", "orders.pricing.pool-size", 10));
	 * Sweep.of(orders, "/stock").confirming(Knob.of("2 CPUs", (service) -> service.withCpuLimit(2)));
	 * }</pre>
	 *
	 * @param name what the knob sets, as the verdict says it: {@code Hikari 8}
	 * @param factor how much the knob raises the resource's limit (2 for a doubling), for
	 * the prediction; 1 when it raises something else (then the ceiling should not move);
	 * below 1 when it lowers the limit (0.5 halves it), a turn a machine can always give
	 * where it may have no cores or memory to spare for a raise
	 * @param turn what it does to the service's container before the new start
	 */
	public record Knob(String name, double factor, Consumer<AbstractServiceContainer<?>> turn) {

		public Knob {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException("a knob needs a name the verdict can say, was '" + name + "'");
			}
			Knobs.between("factor", factor, 0.01, 1000.0);
			if (turn == null) {
				throw new IllegalArgumentException("a knob needs what it does to the service's container");
			}
		}

		/**
		 * A knob that sets the Spring Boot property {@code property} to {@code value}
		 * (which raises the limit {@code factor} times: give 1 when you mean to show that
		 * another resource's limit does not move the ceiling).
		 */
		public static Knob springProperty(String name, String property, Object value, double factor) {
			return new Knob(name, factor, (service) -> service.withSpringProperty(property, value));
		}

		/**
		 * A knob that does anything to the container: a CPU limit, an image tag, a JVM
		 * flag.
		 */
		public static Knob of(String name, double factor, Consumer<AbstractServiceContainer<?>> turn) {
			return new Knob(name, factor, turn);
		}

		/**
		 * The knob Spring Boot or the JVM has for the resource {@code verdict} names,
		 * doubling its limit; empty for a resource with no such knob (a client pool, a
		 * lock, the machine's cores, the downstream): pass one of your own.
		 */
		static Optional<Knob> doubling(Capped verdict, AbstractServiceContainer<?> service) {
			double limit = verdict.model().limit();
			return family(verdict, service).map((family) -> family.at(2 * limit, limit));
		}

		/**
		 * The knob of the resource {@code verdict} names, at any limit: what a search
		 * turns; empty for a resource with no such knob.
		 */
		static Optional<Family> family(Capped verdict, AbstractServiceContainer<?> service) {
			int limit = (int) Math.round(verdict.model().limit());
			return switch (verdict.resource()) {
				case HIKARI_POOL ->
					Optional.of(new Family(1, (value) -> springProperty("Hikari " + Verdict.count(value),
							"spring.datasource.hikari.maximum-pool-size", (int) Math.round(value), 1)));
				case TOMCAT_THREADS ->
					Optional.of(new Family(1, (value) -> springProperty("Tomcat threads " + Verdict.count(value),
							"server.tomcat.threads.max", (int) Math.round(value), 1)));
				case JETTY_THREADS -> {
					// Jetty's acceptor, selector and reserved threads come out of the
					// same pool: the serving threads are raised, the others kept.
					int others = configured(service, "SERVER_JETTY_THREADS_MAX").orElse(limit) - limit;
					yield Optional.of(new Family(1, (value) -> springProperty("Jetty threads " + Verdict.count(value),
							"server.jetty.threads.max", (int) Math.round(value) + others, 1)));
				}
				case CARRIER_THREADS -> Optional
					.of(new Family(1, (value) -> of("carriers " + Verdict.count(value), 1, (container) -> container
						.withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + Math.round(value)))));
				case REACTOR_NETTY_POOL -> Optional.of(new Family(1,
						(value) -> of("Reactor Netty pool " + Verdict.count(value), 1, (container) -> container
							.withJvmOptions("-Dreactor.netty.pool.maxConnections=" + Math.round(value)))));
				case CPU -> verdict.where()
					.filter("service"::equals)
					.map((where) -> new Family(0.1, (value) -> of(Verdict.count(value) + " CPUs", 1,
							(container) -> container.withCpuLimit(value))));
				default -> Optional.empty();
			};
		}

		/**
		 * A resource's knob at any limit.
		 *
		 * @param step the smallest change of the limit: 1 for a pool or threads, 0.1 for
		 * CPUs
		 * @param knob the knob at a limit, its factor 1 (the search sets it)
		 */
		record Family(double step, DoubleFunction<Knob> knob) {

			/** The knob at {@code value}, raising {@code limit} by their ratio. */
			Knob at(double value, double limit) {
				Knob at = this.knob.apply(value);
				return new Knob(at.name(), Math.max(1, value / limit), at.turn());
			}

		}

		private static Optional<Integer> configured(AbstractServiceContainer<?> service, String variable) {
			String value = service.getEnvMap().get(variable);
			return (value != null && value.trim().matches("\\d+")) ? Optional.of(Integer.parseInt(value.trim()))
					: Optional.empty();
		}

	}

}
