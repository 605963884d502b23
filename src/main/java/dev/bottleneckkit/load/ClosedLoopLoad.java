package dev.bottleneckkit.load;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.RunHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A closed-loop load: {@code users} users, each sending its next GET as soon as the last
 * one answered, on a kept-alive HTTP/1.1 connection of its own, for a duration or a
 * request count. The first {@code warmUp} of the run is left out of the figures (JIT,
 * connection set-up); the timeline keeps it. The users join evenly over its first half,
 * as load tools ramp them: users that start at once meet a small pool in step, and it
 * hands them back in step for many cycles, so that a window which opens and closes at
 * different points of that lockstep reads more than the pool carries
 * ({@code bench/lockstep-sim.py} measures how much, started at once and joined).
 *
 * <pre>{@code
 * LoadResult result = ClosedLoopLoad.users(40)
 *     .warmUp(Duration.ofSeconds(3))
 *     .forDuration(Duration.ofSeconds(10))
 *     .run(caller.uri("/call/sleep"));
 * }</pre>
 *
 * A closed loop never has more than {@code users} requests outstanding, so it measures
 * what a service sustains under that concurrency; it cannot overload a dead service.
 */
public final class ClosedLoopLoad {

	private static final Logger log = LoggerFactory.getLogger(ClosedLoopLoad.class);

	/** Most users one run may start: each has a connection of its own. */
	public static final int MAX_USERS = 10_000;

	public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(2);

	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration MAX_RUN = Duration.ofMinutes(30);

	private static final Duration MIN_WINDOW = Duration.ofSeconds(1);

	/** Threads that send the load, each an event loop with its share of the users. */
	private static final int EVENT_LOOPS = 2;

	/** The names a load in turns keeps each side's figures under. */
	private static final String FIRST = "first";

	private static final String SECOND = "second";

	private final int users;

	private final Duration warmUp;

	/**
	 * When the measurement window ends: after a duration, a count of requests, or every
	 * user's cycles.
	 */
	private final Window window;

	private final Duration requestTimeout;

	private final String name;

	/** Whether the run prints its own line to the console. */
	private final boolean printed;

	private ClosedLoopLoad(int users, Duration warmUp, Window window, Duration requestTimeout, String name,
			boolean printed) {
		this.users = users;
		this.warmUp = warmUp;
		this.window = window;
		this.requestTimeout = requestTimeout;
		this.name = name;
		this.printed = printed;
	}

	/**
	 * When a run's measurement window ends: after a fixed time, once a count of requests
	 * ended in it, or once every user went through its cycles.
	 */
	private sealed interface Window {

		/** The window lasts {@code length}. */
		record ForDuration(Duration length) implements Window {

			@Override
			public String toString() {
				return Knobs.human(this.length);
			}

		}

		/** The window ends once {@code count} requests ended in it. */
		record ForRequests(long count) implements Window {

			@Override
			public String toString() {
				return this.count + " requests";
			}

		}

		/**
		 * The window ends once the answers in it reach {@code latencies} × the users,
		 * after {@code atLeast} to {@code atMost}.
		 */
		record ForLatencies(int latencies, Duration atLeast, Duration atMost) implements Window {

			@Override
			public String toString() {
				return this.latencies + " mean latencies, " + Knobs.human(this.atLeast) + " to "
						+ Knobs.human(this.atMost);
			}

		}

		/**
		 * The window ends once every user answered {@code cycles} + 1 times in it, after
		 * 1 s to {@code atMost}.
		 */
		record ForCycles(int cycles, Duration atMost) implements Window {

			@Override
			public String toString() {
				return this.cycles + " cycles of every user, at most " + Knobs.human(this.atMost);
			}

		}

	}

	/**
	 * A closed loop of {@code users} concurrent users, 1 to 10 000; runs 10 s after a 2 s
	 * warm-up unless told.
	 */
	public static ClosedLoopLoad users(int users) {
		return new ClosedLoopLoad(Knobs.between("users", users, 1, MAX_USERS), DEFAULT_WARM_UP,
				new Window.ForDuration(Duration.ofSeconds(10)), DEFAULT_REQUEST_TIMEOUT, "load", true);
	}

	/**
	 * One user, 1 s of warm-up, then seven requests: the route's own latency as the load
	 * sees it, queueing for nothing, the W₁ that a model of the route's cap can divide by
	 * ({@code Ceiling.of(limit, resource,
	 * oneUser.median())}), measured in the same run rather than assumed. Its median, not
	 * its mean: the median of seven shrugs off two requests slowed by a neighbour taking
	 * the CPU.
	 */
	public static ClosedLoopLoad oneUser() {
		return users(1).warmUp(Duration.ofSeconds(1)).forRequests(7).named("one user");
	}

	/** Time left out of the figures at the start, 0 to 10 min. */
	public ClosedLoopLoad warmUp(Duration warmUp) {
		return new ClosedLoopLoad(this.users, Knobs.between("warmUp", warmUp, Duration.ZERO, Duration.ofMinutes(10)),
				this.window, this.requestTimeout, this.name, this.printed);
	}

	/** Length of the measurement window after warm-up, 1 s to 30 min. */
	public ClosedLoopLoad forDuration(Duration duration) {
		return new ClosedLoopLoad(this.users, this.warmUp,
				new Window.ForDuration(Knobs.between("duration", duration, Duration.ofSeconds(1), MAX_RUN)),
				this.requestTimeout, this.name, this.printed);
	}

	/**
	 * Stop after this many requests have ended in the window, answered or failed (1 to
	 * 10^9), instead of after a duration: a route that fails every request ends the run
	 * as soon.
	 */
	public ClosedLoopLoad forRequests(long requests) {
		return new ClosedLoopLoad(this.users, this.warmUp,
				new Window.ForRequests(Knobs.between("requests", requests, 1, 1_000_000_000L)), this.requestTimeout,
				this.name, this.printed);
	}

	/**
	 * A window as long as the throughput needs: it ends once every user has gone through
	 * {@code cycles} whole cycles in it (1 to 100; answered {@code cycles} + 1 times),
	 * after 1 s at least and {@code atMost} (1 s to 30 min) at the most; a user that
	 * answers too seldom holds the window open until {@code atMost}.
	 */
	public ClosedLoopLoad forCycles(int cycles, Duration atMost) {
		return new ClosedLoopLoad(this.users, this.warmUp,
				new Window.ForCycles(Knobs.between("cycles", cycles, 1, 100),
						Knobs.between("atMost", atMost, MIN_WINDOW, MAX_RUN)),
				this.requestTimeout, this.name, this.printed);
	}

	/**
	 * A window as long as its throughput needs: it ends once the users have answered
	 * {@code latencies} times each on average (1 to 100), which by Little's law is that
	 * many mean latencies, but not before {@code atLeast} (1 s to {@code atMost}) nor
	 * after {@code atMost} (to 30 min). Counted by the requests' lives, a queue's
	 * throughput read within 1.4 % of a long window's after four mean latencies and 3 s
	 * on a quiet machine; with a core busy elsewhere a service's first seconds after its
	 * warm-up may still be warming, and a fixed window ({@link #forDuration}) is the
	 * safer choice. The kit's own suite replays every closed-loop window as if it had
	 * ended sooner, to show what this would have read.
	 */
	public ClosedLoopLoad forLatencies(int latencies, Duration atLeast, Duration atMost) {
		Duration longest = Knobs.between("atMost", atMost, MIN_WINDOW, MAX_RUN);
		return new ClosedLoopLoad(this.users, this.warmUp,
				new Window.ForLatencies(Knobs.between("latencies", latencies, 1, 100),
						Knobs.between("atLeast", atLeast, MIN_WINDOW, longest), longest),
				this.requestTimeout, this.name, this.printed);
	}

	/**
	 * How long one request may take before it counts as a {@code timeout} error, 1 ms to
	 * 10 min.
	 */
	public ClosedLoopLoad requestTimeout(Duration requestTimeout) {
		return new ClosedLoopLoad(this.users, this.warmUp, this.window,
				Knobs.between("requestTimeout", requestTimeout, Duration.ofMillis(1), Duration.ofMinutes(10)),
				this.name, this.printed);
	}

	/** A name for logs and reports. */
	public ClosedLoopLoad named(String name) {
		return new ClosedLoopLoad(this.users, this.warmUp, this.window, this.requestTimeout, name, this.printed);
	}

	/**
	 * Prints no line of its own when it ends: for a caller that prints its own, such as a
	 * sweep's steps.
	 */
	public ClosedLoopLoad quiet() {
		return new ClosedLoopLoad(this.users, this.warmUp, this.window, this.requestTimeout, this.name, false);
	}

	/**
	 * Runs the load against {@code target} and blocks until every user has stopped. Where
	 * a test harness keeps turns (scenario classes side by side), the run waits for its
	 * turn first.
	 */
	public LoadResult run(URI target) {
		return run(Request.get(target));
	}

	/**
	 * Runs the load with a mix of requests and blocks until every user has stopped: each
	 * user's next request is drawn from {@code mix} by weight (method, headers and body
	 * as each says; all to one service), and the result has every route's figures beside
	 * the whole ({@link LoadResult#byRoute()}).
	 */
	public LoadResult run(Request... mix) {
		List<Request> requests = Mix.of(mix);
		try (RunHook.Load loading = RunHook.installed().load(this.name, this.users)) {
			log.debug("{}: {} users against {} ({} warm-up, then {})", this.name, this.users, Mix.describe(requests),
					Knobs.human(this.warmUp), this.window);
			return execute(List.of(requests), null, false, loading).result();
		}
	}

	/**
	 * Runs the load in turns between two services and blocks until every user has
	 * stopped: each user sends its next request to the side whose turn it is, the turns
	 * {@code turn} long (50 ms to 1 min), {@code first}'s and {@code second}'s in
	 * alternation, {@code first}'s first where {@code firstGoesFirst}. The window, which
	 * must be {@link #forDuration a duration}, is rounded up to whole turns, as many of
	 * each side's; the warm-up keeps the turns too. Both sides meet the same machine
	 * within a turn of each other, so that a machine whose speed drifts by ±10 % over
	 * seconds moves both alike: two images of one service compared this way read a ratio
	 * whose blocks spread about half as much in 500 ms turns as in 3 s ones
	 * ({@code bench/relay-probe.sh}).
	 *
	 * <pre>{@code
	 * LoadResult.InTurns turns = ClosedLoopLoad.users(16)
	 *     .warmUp(Duration.ofSeconds(2))
	 *     .forDuration(Duration.ofSeconds(6))
	 *     .runInTurns(Duration.ofMillis(500), true, List.of(Request.get(main.uri("/cpu"))),
	 *             List.of(Request.get(pr.uri("/cpu"))));
	 * double ratio = turns.ratio().orElseThrow(); // the second's rate at full load over the first's
	 * }</pre>
	 */
	public LoadResult.InTurns runInTurns(Duration turn, boolean firstGoesFirst, List<Request> first,
			List<Request> second) {
		Duration length = Knobs.between("turn", turn, Duration.ofMillis(50), Duration.ofMinutes(1));
		if (!(this.window instanceof Window.ForDuration(Duration window))) {
			throw new IllegalStateException(
					"a load in turns runs for a duration: give it forDuration(..) instead of " + this.window);
		}
		long count = Math.max(2, (window.toNanos() + length.toNanos() - 1) / length.toNanos());
		count += count % 2;
		ClosedLoopLoad whole = new ClosedLoopLoad(this.users, this.warmUp,
				new Window.ForDuration(length.multipliedBy(count)), this.requestTimeout, this.name, this.printed);
		List<Request> firstMix = Mix.of(first.toArray(Request[]::new));
		List<Request> secondMix = Mix.of(second.toArray(Request[]::new));
		try (RunHook.Load loading = RunHook.installed().load(this.name, this.users)) {
			log.debug("{}: {} users in {} turns between {} and {} ({} warm-up, then {})", this.name, this.users,
					Knobs.human(length), Mix.describe(firstMix), Mix.describe(secondMix), Knobs.human(this.warmUp),
					whole.window);
			Ran ran = whole.execute(List.of(firstMix, secondMix), length, firstGoesFirst, loading);
			LoadResult.InTurns.Side[] sides = ran.turns().sides();
			LoadResult.InTurns result = new LoadResult.InTurns(ran.result().byRoute().get(FIRST),
					ran.result().byRoute().get(SECOND), sides[0], sides[1], length, (int) (count / 2));
			if (this.printed) {
				Console.line(ran.result().summary() + "; " + result);
			}
			return result;
		}
	}

	/** A run's result, and its turns when it ran in turns. */
	private record Ran(LoadResult result, Turns turns) {
	}

	/**
	 * Runs {@code first} against {@code firstTarget} and {@code second} against
	 * {@code secondTarget} at once, as one load run: e.g. a slow route saturating a
	 * shared pool while a healthy route is measured beside it. Returns the two results in
	 * that order once both have ended.
	 */
	public static List<LoadResult> together(ClosedLoopLoad first, URI firstTarget, ClosedLoopLoad second,
			URI secondTarget) {
		try (RunHook.Load loading = RunHook.installed()
			.load(first.name + " and " + second.name, first.users + second.users);
				ExecutorService both = Executors.newVirtualThreadPerTaskExecutor()) {
			log.info("{} ({} users against {}) and {} ({} users against {}) at once", first.name, first.users,
					firstTarget, second.name, second.users, secondTarget);
			Future<LoadResult> firstRun = both
				.submit(() -> first.execute(List.of(List.of(Request.get(firstTarget))), null, false, loading).result());
			LoadResult secondResult = second.execute(List.of(List.of(Request.get(secondTarget))), null, false, loading)
				.result();
			return List.of(firstRun.get(), secondResult);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while " + first.name + " and " + second.name + " ran", ex);
		}
	}

	/** The answers of each whole second of the window. */
	static double[] perSecond(LoadResult result) {
		return result.timeline()
			.stream()
			.filter(LoadResult.Second::inWindow)
			.mapToDouble((second) -> second.succeeded() + second.failed())
			.toArray();
	}

	/**
	 * Runs {@code sides}, one mix each; two in turns of {@code turn} (null: one side, no
	 * turns).
	 */
	private Ran execute(List<List<Request>> sides, Duration turn, boolean firstGoesFirst, RunHook.Load loading) {
		List<Request> mix = sides.get(0);
		Measurement measurement = switch (this.window) {
			case Window.ForDuration(Duration length) ->
				new Measurement(this.warmUp, length, length, this.requestTimeout, 0, this.users);
			case Window.ForRequests(long count) ->
				new Measurement(this.warmUp, MAX_RUN, MAX_RUN, this.requestTimeout, 0, this.users);
			case Window.ForCycles(int cycles, Duration atMost) ->
				new Measurement(this.warmUp, MIN_WINDOW, atMost, this.requestTimeout, cycles, this.users);
			case Window.ForLatencies(int latencies, Duration atLeast, Duration atMost) ->
				new Measurement(this.warmUp, atLeast, atMost, this.requestTimeout, 0, this.users)
					.endingAfterAnswers((long) latencies * this.users);
		};
		measurement.withRoutes((turn == null) ? Mix.names(mix) : List.of(FIRST, SECOND));
		Turns turns = (turn == null) ? null : new Turns(measurement.windowStartNanos, turn,
				(int) (((Window.ForDuration) this.window).length().toNanos() / turn.toNanos()), firstGoesFirst);
		// Like wrk's default -t2: two event loops, each with half the users, so that
		// answers do not queue behind one busy thread; more would take cores from the
		// service being measured.
		int loops = Math.min(this.users, EVENT_LOOPS);
		measurement.loops(loops);
		List<HttpEventLoop> eventLoops = new ArrayList<>();
		for (int l = 0; l < loops; l++) {
			eventLoops.add(new HttpEventLoop(this.name, sides, turns, this.requestTimeout, measurement, l == 0));
		}
		AtomicReference<RuntimeException> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		long rampNanos = this.warmUp.toNanos() / 2;
		for (int l = 0; l < loops; l++) {
			int share = this.users / loops + ((l < this.users % loops) ? 1 : 0);
			long[] joins = new long[share];
			for (int i = 0; i < share; i++) {
				// The users in turn across the loops, evenly over the ramp.
				joins[i] = rampNanos * (i * (long) loops + l) / this.users;
			}
			HttpEventLoop loop = eventLoops.get(l);
			threads.add(Thread.ofPlatform().name("bottleneck-kit-load-" + l).start(() -> {
				try (loop) {
					loop.closedLoop(share, (this.window instanceof Window.ForRequests(long count)) ? count : 0, joins);
				}
				catch (RuntimeException ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		try {
			for (Thread thread : threads) {
				thread.join();
			}
		}
		catch (InterruptedException ex) {
			threads.forEach(Thread::interrupt);
			Thread.currentThread().interrupt();
		}
		if (failure.get() != null) {
			throw failure.get();
		}
		LoadResult result = measurement.result(this.name, this.users, Double.NaN, this.warmUp,
				(turn == null) ? Mix.shares(mix) : List.of());
		loading.measured(new RunHook.Window(this.name, this.warmUp, result.window(), result.completed(),
				perSecond(result), measurement::replays));
		if (this.printed && turns == null) {
			Console.line(result.summary());
		}
		return new Ran(result, turns);
	}

}
