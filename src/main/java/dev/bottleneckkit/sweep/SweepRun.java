package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Budget;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.Phases;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.probe.ThreadDump;
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
final class SweepRun {

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

	SweepRun(List<Request> mix, String name, int maxUsers, Duration requestTimeout, AbstractServiceContainer<?> service,
			GenericContainer<?> downstream, Duration warmUpAtMost) {
		this.mix = List.copyOf(mix);
		this.name = name;
		this.maxUsers = maxUsers;
		this.requestTimeout = requestTimeout;
		this.service = service;
		this.downstream = downstream;
		this.warmUpAtMost = warmUpAtMost;
	}

	String name() {
		return this.name;
	}

	AbstractServiceContainer<?> service() {
		return this.service;
	}

	/** Where the mix goes: its first request's URI. */
	URI target() {
		return this.mix.get(0).uri();
	}

	/**
	 * The same run on {@code other}, a service started alike (an A/B sweep's base), named
	 * with {@code suffix}.
	 */
	SweepRun on(AbstractServiceContainer<?> other, String suffix) {
		return new SweepRun(this.mix.stream().map((request) -> request.at(other.uri(""))).toList(), this.name + suffix,
				this.maxUsers, this.requestTimeout, other, this.downstream, this.warmUpAtMost);
	}

	int maxUsers() {
		return this.maxUsers;
	}

	GenericContainer<?> downstream() {
		return this.downstream;
	}

	/**
	 * A load at {@code users} with a step's warm-up and window, read against the sweep's
	 * W₁ and the latency last measured at these users, without the probes: a block of an
	 * A/B sweep.
	 */
	LoadResult load(int users, Duration w1, Duration lastLatency, String what) {
		return ClosedLoopLoad.users(users)
			.warmUp(stepWarmUp(w1, lastLatency))
			.forCycles(CYCLES, Duration.ofSeconds(MAX_WINDOW_SECONDS))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + what)
			.quiet()
			.run(this.mix.toArray(Request[]::new));
	}

	/**
	 * A step's warm-up: two W₁ or the last latency, 0.5 to 3 s; 1 s before W₁ is known.
	 */
	static Duration stepWarmUp(Duration w1, Duration lastLatency) {
		return (w1 == null) ? Duration.ofSeconds(1)
				: clamp(max(w1.multipliedBy(2), lastLatency), Duration.ofMillis(500), Duration.ofSeconds(3));
	}

	/** The same run with its requests sent to the service at its current port. */
	SweepRun atTheServicesPort() {
		return new SweepRun(this.mix.stream().map((request) -> request.at(this.service.uri(""))).toList(), this.name,
				this.maxUsers, this.requestTimeout, this.service, this.downstream, this.warmUpAtMost);
	}

	/** Warms the service up and runs the steps until throughput stops rising. */
	Readings measure() {
		long started = System.nanoTime();
		List<Step> steps = new ArrayList<>();
		boolean saturated = false;
		try (Probes probes = new Probes(this.service, this.downstream);
				Phases.Turn loading = Phases.enter(Phases.Phase.LOADING, this.name, 2);
				ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
			Console.line(String.format(Locale.ROOT, "%s: sweeping %s from 1 user, doubling up to %d", this.name,
					target(), this.maxUsers));
			Optional<WarmUp> warmedUp = warmUp(this.name);
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
			return new Readings(steps, saturated, warmedUp, probes.blind(), probes.meters(),
					Duration.ofNanos(System.nanoTime() - started));
		}
	}

	/**
	 * A confirmation's steps at {@code users} with {@code knob} turned, after a warm-up,
	 * read against the sweep's first step (its W₁ sets each step's warm-up and window).
	 */
	List<Step> confirmationSteps(List<Integer> users, Step firstOfTheSweep, String knob) {
		List<Step> steps = new ArrayList<>();
		try (Probes probes = new Probes(this.service, this.downstream);
				Phases.Turn loading = Phases.enter(Phases.Phase.LOADING, this.name + ", confirmation", 2);
				ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
			warmUp(this.name + ", confirmation");
			List<Step> context = new ArrayList<>(List.of(firstOfTheSweep));
			for (int each : users) {
				Step step = step(each, context, probes, background);
				context.add(step);
				steps.add(step);
				Console.line(String.format(Locale.ROOT, "%s, %s: %4d users %8.1f rps  mean %5d ms", this.name, knob,
						each, step.throughput(), step.meanLatency().toMillis()));
			}
		}
		return steps;
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

	/**
	 * Warms the service up in rounds of {@value WarmUp#USERS} users until the mean
	 * latency settles or the time runs out; empty when no time is allowed.
	 */
	Optional<WarmUp> warmUp(String what) {
		if (this.warmUpAtMost.isZero()) {
			return Optional.empty();
		}
		try (Budget.Span warming = Budget.windowsAs(Budget.Category.WARM_UPS)) {
			long started = System.nanoTime();
			List<Duration> means = new ArrayList<>();
			boolean settled = false;
			while (System.nanoTime() - started < this.warmUpAtMost.toNanos()) {
				Duration left = this.warmUpAtMost.minusNanos(System.nanoTime() - started);
				LoadResult round = ClosedLoopLoad.users(WarmUp.USERS)
					.warmUp(Duration.ZERO)
					.forCycles(1, clamp(left, Duration.ofSeconds(1), Duration.ofSeconds(6)))
					.requestTimeout(this.requestTimeout)
					.named(what + ", warm-up")
					.quiet()
					.run(this.mix.toArray(Request[]::new));
				Duration mean = round.meanLatency();
				if (round.succeeded() == 0) {
					// A route that fails is not warming up: the steps will say what it
					// answers.
					means.add(mean);
					break;
				}
				settled = !means.isEmpty() && WarmUp.settled(means.get(means.size() - 1), mean);
				means.add(mean);
				if (settled) {
					break;
				}
			}
			WarmUp warmUp = new WarmUp(WarmUp.USERS, Duration.ofNanos(System.nanoTime() - started), means, settled);
			Console.line(what + ": " + warmUp);
			return Optional.of(warmUp);
		}
	}

	/**
	 * A step of {@code users} after the steps {@code before}, read by {@code probes}; its
	 * thread dumps taken on {@code background}.
	 */
	Step step(int users, List<Step> before, Probes probes, ExecutorService background) {
		Duration w1 = before.isEmpty() ? null : before.get(0).meanLatency();
		Duration lastLatency = before.isEmpty() ? Duration.ZERO : before.get(before.size() - 1).meanLatency();
		Duration warmUp = stepWarmUp(w1, lastLatency);
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
			while (!dumps.isEmpty() && dumps.size() < POOL_DUMPS && (ThreadDumps.waitsForAPooledConnection(dumps.get(0))
					|| ThreadDumps.showsABusyWorkerPool(dumps.get(0)))) {
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
		// The window opens as the load's warm-up ends, a few milliseconds after wallStart
		// + warmUp at most, and closes result.window() later.
		long windowStart = wallStart + warmUp.toNanos();
		ProbeReadings read = probes.endStep(wallStart, windowStart, windowStart + result.window().toNanos(), wallEnd,
				join(dump));
		return new Step(users, result, read.service(), read.downstream(), read.cpu(), read.pinned(), read.carriers(),
				read.threads(), read.connections(), read.wall(), read.standIn(), read.carrierCores(),
				read.cpuOverTheWindow());
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

}
