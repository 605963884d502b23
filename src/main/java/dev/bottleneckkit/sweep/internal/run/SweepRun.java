package dev.bottleneckkit.sweep.internal.run;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.DockerHost;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.WarmUp;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.read.MachineCpu;
import org.testcontainers.containers.GenericContainer;

/**
 * One sweep's measuring, as its settings say: a warm-up until the route's latency
 * settles, then closed-loop steps at 1, 2, 4, … users until throughput stops rising, each
 * read by the {@link Probes}, which this run opens and closes. What it hands on is
 * {@link Readings}; it concludes nothing.
 *
 * Step lengths follow the route: once the first step has measured one user's latency W₁,
 * each step warms up for two W₁ or the last step's latency (0.5 to 3 s), then measures
 * until every user has gone through {@value #CYCLES} whole cycles (at least 1 s, at most
 * {@value #MAX_WINDOW_SECONDS} s).
 */
public final class SweepRun {

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
	 * The machine's busy share from which other processes' burst crowds a step out
	 * ({@link #crowdedOut}).
	 */
	static final double CROWDED_MACHINE = 0.75;

	/** The rise of other processes' cores over the step before that crowds a step out. */
	static final double CROWDING = 0.3;

	/**
	 * The longest a crowded step waits for the machine to quiet before it is measured
	 * again.
	 */
	static final Duration CROWD_WAIT = Duration.ofSeconds(8);

	/** The longest a step's warm-up waits for a declared rate's stored permits. */
	static final int STORE_SPENT_AT_MOST = 10;

	/**
	 * The shortest window of an A/B block's load on a route the CPU may cap
	 * ({@link #blockWindow}): a route of a few milliseconds fills a step's 1 s in two
	 * cycles, and one collection or compile in it moved a CPU-bound block by ±10 %; the
	 * ratio of two such windows is what a guard reads.
	 */
	static final int BLOCK_WINDOW_SECONDS = 3;

	/**
	 * A turn of an A/B block on a route the CPU may cap ({@link #loadInTurns}), at the
	 * least: the cores' speed drifts by ±15 % over 3 s windows on a shared machine, by
	 * ±10 % still over 24 s, and a window over the next by ±13 %; A and B in turns of 500
	 * ms read blocks that spread about half as much as in turns of 3 s
	 * ({@code bench/relay-probe.sh}: ±1.5 % against ±2.8 %, pooled over five runs).
	 */
	static final int TURN_MILLIS = 500;

	/**
	 * Mean latencies a turn holds at the least: each turn begins with the other side's
	 * last requests draining, about a latency.
	 */
	static final int TURN_LATENCIES = 8;

	/**
	 * The share of its cores below which a ceiling's step leaves the CPU no part in the
	 * cap, so that its blocks may measure a step's 1 s ({@link #blockWindow}).
	 */
	static final double CPU_ASIDE = 0.5;

	/** The requests the users draw from. */
	private final List<Request> mix;

	/** The sweep's name, for logs. */
	private final String name;

	/** The users of the last step. */
	private final int maxUsers;

	/** How long a request may take before it counts as a timeout. */
	private final Duration requestTimeout;

	/** The service the probes read, when the kit sees it. */
	private final AbstractServiceContainer<?> service;

	/** Its downstream, when watched. */
	private final GenericContainer<?> downstream;

	/** The longest the warm-up before the first step may last. */
	private final Duration warmUpAtMost;

	/**
	 * The team's resources the test declared: their meters are read beside the kit's own,
	 * and their rates stored while idle are spent before a step's window opens.
	 */
	private final List<Resource.Own> own;

	public SweepRun(List<Request> mix, String name, int maxUsers, Duration requestTimeout,
			AbstractServiceContainer<?> service, GenericContainer<?> downstream, Duration warmUpAtMost,
			List<Resource.Own> own) {
		this.mix = List.copyOf(mix);
		this.name = name;
		this.maxUsers = maxUsers;
		this.requestTimeout = requestTimeout;
		this.service = service;
		this.downstream = downstream;
		this.warmUpAtMost = warmUpAtMost;
		this.own = List.copyOf(own);
	}

	String name() {
		return this.name;
	}

	AbstractServiceContainer<?> service() {
		return this.service;
	}

	/** Where the mix goes: its first request's URI. */
	public URI target() {
		return this.mix.get(0).uri();
	}

	/**
	 * The same run on {@code other}, a service started alike (an A/B sweep's base), named
	 * with {@code suffix}.
	 */
	SweepRun on(AbstractServiceContainer<?> other, String suffix) {
		return new SweepRun(this.mix.stream().map((request) -> request.at(other.uri(""))).toList(), this.name + suffix,
				this.maxUsers, this.requestTimeout, other, this.downstream, this.warmUpAtMost, this.own);
	}

	/**
	 * {@code runs}, routes of one service, as one run named {@code name} whose mix holds
	 * all their requests: a warm-up for all of them at once.
	 */
	static SweepRun together(List<SweepRun> runs, String name) {
		SweepRun first = runs.get(0);
		return new SweepRun(runs.stream().flatMap((run) -> run.mix.stream()).toList(), name,
				runs.stream().mapToInt(SweepRun::maxUsers).max().orElse(first.maxUsers), first.requestTimeout,
				first.service, first.downstream, first.warmUpAtMost, first.own);
	}

	int maxUsers() {
		return this.maxUsers;
	}

	GenericContainer<?> downstream() {
		return this.downstream;
	}

	/**
	 * A load at {@code users} with a step's warm-up, read against the sweep's W₁ and the
	 * latency last measured at these users, without the probes: a block of an A/B sweep.
	 * Its window holds {@value #CYCLES} + 1 mean latencies and lasts at least
	 * {@code atLeast} ({@link #blockWindow}), at most {@value #MAX_WINDOW_SECONDS} s.
	 */
	LoadResult load(int users, Duration w1, Duration lastLatency, Duration atLeast, String what) {
		return ClosedLoopLoad.users(users)
			.warmUp(stepWarmUp(w1, lastLatency))
			.forLatencies(CYCLES + 1, atLeast, Duration.ofSeconds(MAX_WINDOW_SECONDS))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + what)
			.quiet()
			.run(this.mix.toArray(Request[]::new));
	}

	/**
	 * A load at {@code users} in turns between this run's service (the first side, A) and
	 * {@code other}'s (B), the users' requests going to the side whose turn it is, with a
	 * step's warm-up: a block of an A/B sweep on a route the CPU may cap. Each side gets
	 * {@code each} of turns or {@value #CYCLES} + 1 mean latencies, whichever is longer,
	 * in turns of {@value #TURN_MILLIS} ms or {@value #TURN_LATENCIES} mean latencies.
	 */
	LoadResult.InTurns loadInTurns(SweepRun other, boolean firstGoesFirst, int users, Duration w1, Duration lastLatency,
			Duration each, String what) {
		Duration turn = turn(lastLatency);
		Duration length = max(each, lastLatency.multipliedBy(CYCLES + 1));
		return ClosedLoopLoad.users(users)
			.warmUp(stepWarmUp(w1, lastLatency))
			.forDuration(length.multipliedBy(2))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + what)
			.quiet()
			.runInTurns(turn, firstGoesFirst, this.mix, other.mix);
	}

	/**
	 * The turns of a load in turns whose last mean latency was {@code lastLatency}:
	 * {@value #TURN_MILLIS} ms or {@value #TURN_LATENCIES} mean latencies, whichever is
	 * longer.
	 */
	static Duration turn(Duration lastLatency) {
		return max(Duration.ofMillis(TURN_MILLIS), lastLatency.multipliedBy(TURN_LATENCIES));
	}

	/**
	 * A step's warm-up: two W₁ or the last latency, 0.5 to 3 s; 1 s before W₁ is known.
	 */
	static Duration stepWarmUp(Duration w1, Duration lastLatency) {
		return (w1 == null) ? Duration.ofSeconds(1)
				: WarmUpRun.clamp(max(w1.multipliedBy(2), lastLatency), Duration.ofMillis(500), Duration.ofSeconds(3));
	}

	/**
	 * The shortest window of an A/B block's loads, from the ceiling's step on each side:
	 * a step's 1 s where both read their CPU and on both the test's processes took less
	 * than {@value #CPU_ASIDE} of the cores they had ({@link #cpuShare}), the service's
	 * compilers aside; else {@value #BLOCK_WINDOW_SECONDS} s. A compile or another
	 * process's burst takes a core for a moment: a route that waits for a pool, its
	 * threads or a downstream, with cores to spare, loses nothing to it, while a
	 * CPU-bound route loses that moment's work, and only a longer window makes it a small
	 * share of the block. The blocks run after both sides settled at the ceiling's users
	 * with their compilers quiet ({@link PairRun}), so the cores the climb's step gave to
	 * compiling are not the route's: a pool-capped route read 0.26 of a core compiling at
	 * its ceiling, which put it over the line and on two pairs of JVMs.
	 */
	static Duration blockWindow(Step baseCeiling, Step headCeiling) {
		boolean cpuAside = Stream.of(baseCeiling, headCeiling)
			.allMatch((step) -> step.cpu()
				.filter((use) -> cpuShare(compilersAside(use, step.compilerCores().orElse(0))) < CPU_ASIDE)
				.isPresent());
		return cpuAside ? Duration.ofSeconds(1) : Duration.ofSeconds(BLOCK_WINDOW_SECONDS);
	}

	/** {@code use} without the cores the service's compilers took in it. */
	static Step.Cpu compilersAside(Step.Cpu use, double compilers) {
		double aside = Math.min(compilers, use.service());
		return new Step.Cpu(use.service() - aside, use.serviceLimit(), use.serviceLimited(), use.downstream(),
				use.downstreamLimit(), use.neighbours(), use.generator(), use.machineCores(),
				use.machineUsed() - aside);
	}

	/**
	 * How full the cores the test had were: the higher of the service's share of the
	 * cores it could have ({@link Step.Cpu#serviceCores()}) and the test's processes'
	 * share of the cores the machine's other processes left.
	 */
	static double cpuShare(Step.Cpu use) {
		double left = use.machineCores() - use.others();
		double test = (left > 0) ? (use.machineUsed() - use.others()) / left : 1;
		double service = (use.serviceCores() > 0) ? use.service() / use.serviceCores() : 1;
		return Math.max(test, service);
	}

	/** The same run with its requests sent to the service at its current port. */
	SweepRun atTheServicesPort() {
		return new SweepRun(this.mix.stream().map((request) -> request.at(this.service.uri(""))).toList(), this.name,
				this.maxUsers, this.requestTimeout, this.service, this.downstream, this.warmUpAtMost, this.own);
	}

	/** Warms the service up and runs the steps until throughput stops rising. */
	public Readings measure() {
		long started = System.nanoTime();
		try (Probes probes = openProbes(); RunHook.Load loading = RunHook.installed().loads(this.name)) {
			Console.line(String.format(Locale.ROOT, "%s: sweeping %s from 1 user, doubling up to %d", this.name,
					target(), this.maxUsers));
			Optional<WarmUp> warmedUp = warming().warmUp(this.name, true);
			Climb climb = new Climb(this.name, List.of(new Climb.Side(this::step, probes)), this.maxUsers);
			Climb.AtEachCount told = (users, steps) -> {
				Step step = steps.get(0);
				Console.line(String.format(Locale.ROOT, "%s: %4d %-5s %8.1f rps  mean %5d ms  p99 %5d ms  %d errors",
						this.name, users, (users == 1) ? "user" : "users", step.throughput(),
						step.meanLatency().toMillis(), step.result().p99().toMillis(), step.result().errorCount()));
			};
			climb.climb(loading, told);
			Climb.Side side = climb.sides().get(0);
			List<Step> climbed = side.steps();
			List<Step> steps = kneeAgain(climbed, side.saturated(), probes, loading);
			if (steps != climbed && !side.takeAgain(steps) && 2 * last(steps).users() <= this.maxUsers) {
				// Measured warm, the knee's steps no longer show the plateau the climb
				// stopped at: it goes on from its last count, and its new knee is read
				// warm.
				Console.line(String.format(Locale.ROOT,
						"%s: measured warm, the steps no longer show the plateau: climbing on from %d users", this.name,
						last(steps).users()));
				climb.climb(loading, told);
				climbed = side.steps();
				steps = kneeAgain(climbed, side.saturated(), probes, loading);
				side.takeAgain(steps);
			}
			List<Record> settings = probes.readSettings(steps);
			return new Readings(steps, side.saturated(), warmedUp, probes.blind(), probes.meters(),
					Duration.ofNanos(System.nanoTime() - started), settings);
		}
	}

	private static Step last(List<Step> steps) {
		return steps.get(steps.size() - 1);
	}

	/**
	 * {@code steps} with the knee's, the knee and a step either side of it, measured
	 * again where any of them ran while the compilers worked ({@link Step#warming()}):
	 * after the climb the JVM has run every count, and the later figures are the
	 * service's own. The steps as they were where none was warming or there is no knee.
	 */
	private List<Step> kneeAgain(List<Step> steps, boolean saturated, Probes probes, RunHook.Load loading) {
		List<Integer> around = kneeSteps(steps, saturated);
		if (around.stream().noneMatch((index) -> steps.get(index).warming())) {
			return steps;
		}
		double busiest = around.stream()
			.mapToDouble((index) -> steps.get(index).compilerCores().orElse(0))
			.max()
			.orElse(0);
		List<Step> again = new ArrayList<>(steps);
		for (int index : around) {
			int users = steps.get(index).users();
			loading.next(users, this.name + ", " + ((users == 1) ? "1 user" : users + " users") + " again");
			again.set(index, step(users, List.copyOf(again.subList(0, index)), probes));
		}
		Console.line(String.format(Locale.ROOT,
				"%s: the knee's steps ran while the compilers worked (up to %.2f of a core): measured %s users again,"
						+ " %s rps now",
				this.name, busiest,
				around.stream()
					.map((index) -> String.valueOf(steps.get(index).users()))
					.collect(Collectors.joining(", ")),
				around.stream()
					.map((index) -> String.format(Locale.ROOT, "%.1f → %.1f", steps.get(index).throughput(),
							again.get(index).throughput()))
					.collect(Collectors.joining(", "))));
		return again;
	}

	/**
	 * The indexes of the knee's step and the steps either side of it, in order; none
	 * where the climb found no knee.
	 */
	static List<Integer> kneeSteps(List<Step> steps, boolean saturated) {
		Optional<Step> knee = Readings.of(steps, saturated).knee();
		if (knee.isEmpty()) {
			return List.of();
		}
		int at = steps.indexOf(knee.get());
		return IntStream.rangeClosed(Math.max(0, at - 1), Math.min(steps.size() - 1, at + 1)).boxed().toList();
	}

	/** The probes of this run's service and downstream, opened. */
	Probes openProbes() {
		return Probes.open(Optional.ofNullable(this.service), Optional.ofNullable(this.downstream),
				this.own.stream().flatMap((each) -> each.meters().stream()).toList());
	}

	/**
	 * A confirmation's steps at {@code users} with {@code knob} turned, after a warm-up,
	 * read against the sweep's first step (its W₁ sets each step's warm-up and window).
	 */
	List<Step> confirmationSteps(List<Integer> users, Step firstOfTheSweep, String knob, double factor) {
		List<Step> steps = new ArrayList<>();
		try (Probes probes = openProbes();
				RunHook.Load loading = RunHook.installed().loads(this.name + ", confirmation")) {
			warming().warmUp(this.name + ", confirmation", true);
			List<Step> context = new ArrayList<>(List.of(firstOfTheSweep));
			for (int each : users) {
				Step step = step(each, context, probes, factor);
				context.add(step);
				steps.add(step);
				Console.line(String.format(Locale.ROOT, "%s, %s: %4d users %8.1f rps  mean %5d ms", this.name, knob,
						each, step.throughput(), step.meanLatency().toMillis()));
			}
		}
		return steps;
	}

	/** The warm-up of this run's service, bounded by the sweep's. */
	WarmUpRun warming() {
		return new WarmUpRun(this.mix, this.requestTimeout, this.service, this.maxUsers, this.warmUpAtMost);
	}

	/** A step of {@code users} after the steps {@code before}, read by {@code probes}. */
	Step step(int users, List<Step> before, Probes probes) {
		return step(users, before, probes, 1);
	}

	/**
	 * A step of {@code users} after the steps {@code before}, read by {@code probes}, the
	 * declared rates raised {@code factor} times by a knob.
	 */
	private Step step(int users, List<Step> before, Probes probes, double factor) {
		Step step = measure(users, before, probes, factor);
		String what = this.name + ", " + users + (users == 1 ? " user" : " users");
		if (compilingAtFullCpu(step)) {
			Settling settling = warming().settle(users, step.meanLatency(), what + ", settling");
			Console.line(String.format(Locale.ROOT,
					"%s: the compilers took %.2f of a core while the CPU was full; settled (%s) and measured again",
					what, step.compilerCores().getAsDouble(), settling));
			step = measure(users, before, probes, factor);
		}
		if (crowdedOut(step, before)) {
			Step.Cpu now = step.cpu().get();
			double others = lastCpu(before).get().others();
			Duration waited = waitForTheMachine(others + CROWDING / 2);
			Console.line(String.format(Locale.ROOT,
					"%s: other processes took %.2f of a core (%.2f the step before) while the machine was %.0f %% busy;"
							+ " waited %.1f s for them and measured again",
					what, now.others(), others, 100 * now.machineBusy(), waited.toMillis() / 1000.0));
			step = measure(users, before, probes, factor);
		}
		return step;
	}

	/**
	 * Whether other processes crowded {@code step} out: the machine was at least
	 * {@value #CROWDED_MACHINE} busy while the processes the CPU split does not name
	 * (none of the test's containers, nor its JVM) took at least {@value #CROWDING} of a
	 * core more than in the step before. Such a burst (a neighbour starting, an engine's
	 * housekeeping) takes the cores the step's extra users needed, so that a doubling
	 * reads flat and ends the climb at the wrong knee ({@code SettlingTest} replays one).
	 * A neighbour there all along (a busy loop on a shared runner) crowds every step
	 * alike and is read as the cores it leaves.
	 */
	static boolean crowdedOut(Step step, List<Step> before) {
		Optional<Step.Cpu> earlier = lastCpu(before);
		return step.cpu()
			.filter((now) -> earlier.isPresent() && now.machineBusy() >= CROWDED_MACHINE
					&& now.others() - earlier.get().others() >= CROWDING)
			.isPresent();
	}

	/** The CPU of the last of {@code before}, when read. */
	private static Optional<Step.Cpu> lastCpu(List<Step> before) {
		return before.isEmpty() ? Optional.empty() : before.get(before.size() - 1).cpu();
	}

	/**
	 * Waits, with no load on, until the machine's busy cores fall to {@code quietCores}
	 * over half a second, at most {@link #CROWD_WAIT}; how long it waited. With a remote
	 * engine this machine's {@code /proc/stat} is not the engine's: it waits a second.
	 */
	private static Duration waitForTheMachine(double quietCores) {
		long started = System.nanoTime();
		OptionalLong last = MachineCpu.machineBusyNanos();
		long lastAt = System.nanoTime();
		boolean readable = DockerHost.engineIsLocal() && last.isPresent();
		try {
			if (!readable) {
				Thread.sleep(1000);
			}
			while (readable && System.nanoTime() - started < CROWD_WAIT.toNanos()) {
				Thread.sleep(500);
				OptionalLong now = MachineCpu.machineBusyNanos();
				long nowAt = System.nanoTime();
				if (now.isEmpty() || (now.getAsLong() - last.getAsLong()) / (double) (nowAt - lastAt) <= quietCores) {
					break;
				}
				last = now;
				lastAt = nowAt;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return Duration.ofNanos(System.nanoTime() - started);
	}

	/**
	 * Whether {@code step} measured the JIT as much as the service: its compilers took
	 * more than {@value Settling#QUIET} of a core while the service's cores (or the cores
	 * the machine's other processes left) were at least
	 * {@value AnalysisPolicy#CPU_SATURATED} full, so that each doubling of the users
	 * gains what the compilers give back, and a climb past the knee keeps rising. A step
	 * whose cores had room loses nothing to them.
	 */
	static boolean compilingAtFullCpu(Step step) {
		if (step.compilerCores().isEmpty() || step.compilerCores().getAsDouble() <= Settling.QUIET) {
			return false;
		}
		return step.cpu().filter((use) -> cpuShare(use) >= AnalysisPolicy.CPU_SATURATED).isPresent();
	}

	/**
	 * One measurement of a step, as {@link #step(int, List, Probes, double)} takes it.
	 */
	private Step measure(int users, List<Step> before, Probes probes, double factor) {
		Duration w1 = before.isEmpty() ? null : before.get(0).meanLatency();
		Duration lastLatency = before.isEmpty() ? Duration.ZERO : before.get(before.size() - 1).meanLatency();
		List<Double> rates = this.own.stream()
			.flatMap((each) -> each.rate().stream().boxed())
			.map((rate) -> rate * factor)
			.toList();
		Duration warmUp = max(stepWarmUp(w1, lastLatency), storeSpent(users, w1, rates));
		// The window this step is likely to have: its users' cycles, twice the last
		// step's latency once the users queue.
		Duration likelyWindow = WarmUpRun.clamp(lastLatency.multipliedBy(2L * (CYCLES + 1)), Duration.ofSeconds(1),
				Duration.ofSeconds(MAX_WINDOW_SECONDS));
		probes.begin(new StepProbe.Plan(warmUp, likelyWindow));
		long wallStart = System.nanoTime();

		LoadResult result = ClosedLoopLoad.users(users)
			.warmUp(warmUp)
			.forCycles(CYCLES, Duration.ofSeconds(MAX_WINDOW_SECONDS))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + users + (users == 1 ? " user" : " users"))
			.quiet()
			.run(this.mix.toArray(Request[]::new));

		long wallEnd = System.nanoTime();
		// The window opens as the load's warm-up ends, a few milliseconds after wallStart
		// + warmUp at most, and closes result.window() later.
		long windowStart = wallStart + warmUp.toNanos();
		StepProbe.Window window = new StepProbe.Window(wallStart, windowStart, windowStart + result.window().toNanos(),
				wallEnd);
		ProbeReadings read = probes.end(window);
		return new Step(users, result, read.service(), read.downstream(), read.cpu(), read.pinned(), read.carriers(),
				read.threads(), read.connections(), window.wall(), read.standIn(), read.carrierCores(),
				read.cpuOverTheWindow(), read.compilerCores());
	}

	/**
	 * How long a step's warm-up lasts for {@code users} to spend what the declared rate
	 * limiters stored while idle between two steps, so that its window reads their rate
	 * and not their burst. A limiter stores at most a second of permits (Guava's
	 * {@code RateLimiter.create(rate)} does) and goes on giving its rate, while the users
	 * ask {@code users / W₁} a second, a quarter less over a warm-up whose first half
	 * ramps them up: {@code rate × (1 s + T) = ¾ × asked × T}. A step of a 0.5 s warm-up
	 * and a 1 s window at 4 users read 15.5 rps through a limiter of 12 a second. At most
	 * {@value #STORE_SPENT_AT_MOST} s; none for a rate the users do not reach.
	 */
	public static Duration storeSpent(int users, Duration w1, List<Double> rates) {
		if (w1 == null || w1.isZero() || rates.isEmpty()) {
			return Duration.ZERO;
		}
		double asked = users / (w1.toNanos() / 1e9);
		double seconds = rates.stream()
			.filter((rate) -> rate < asked)
			.mapToDouble((rate) -> (rate < 0.75 * asked) ? rate / (0.75 * asked - rate) : STORE_SPENT_AT_MOST)
			.max()
			.orElse(0);
		return Duration.ofNanos(Math.round(Math.min(seconds, STORE_SPENT_AT_MOST) * 1e9));
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}
