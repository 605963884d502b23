package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.sweep.WarmUp;
import dev.bottleneckkit.sweep.internal.read.JitWork;

/**
 * A service's warm-up: rounds of load, each one cycle of its users, until its compilers
 * are quiet where the steps or blocks that follow will load it, within a bound, saying
 * where it is every {@value #PROGRESS_SECONDS} s.
 *
 * @param mix the requests of a round
 * @param requestTimeout how long a request may take
 * @param service the service, whose JVM's compilers are read where its JMX agent answers
 * @param maxUsers the most users a round may have
 * @param atMost the longest a sweep's warm-up lasts; zero for none
 */
record WarmUpRun(List<Request> mix, Duration requestTimeout, AbstractServiceContainer<?> service, int maxUsers,
		Duration atMost) {

	/** How often a warm-up says where it is, in seconds. */
	static final int PROGRESS_SECONDS = 15;

	/**
	 * Warms the service up, or returns empty when no time is allowed. First in rounds of
	 * {@value WarmUp#USERS} users until its compilers are quiet and a request's CPU
	 * stopped falling (the latency, where the service's JVM cannot be read); then, where
	 * the compilers are read and {@code whereItMatters}, one round at each doubling of
	 * the users until throughput stops rising, and rounds at the users whose request took
	 * the most CPU of its own ({@link WarmUp#busiest}) until the compilers are quiet
	 * there. A page warmed at two users left its compilers at 0.3 to 0.6 of a core at the
	 * knee, and two fresh JVMs read ceilings 25 % apart. An A/B run's sides keep only the
	 * first rounds: they settle at the ceiling's users before their blocks
	 * ({@link #settle}).
	 */
	Optional<WarmUp> warmUp(String what, boolean whereItMatters) {
		if (this.atMost.isZero()) {
			return Optional.empty();
		}
		try (RunHook.Span warming = RunHook.installed().begin(RunHook.Work.WARM_UP, what);
				Rounds rounds = new Rounds(what, this.atMost)) {
			boolean settled = false;
			while (rounds.timeLeft() && !settled) {
				if (rounds.run(WarmUp.USERS, Duration.ofSeconds(6)).throughput() <= 0) {
					// A route that fails is not warming up: the steps will say what it
					// answers.
					break;
				}
				settled = WarmUp.settled(rounds.all);
			}
			if (whereItMatters && settled && rounds.last().compilerCores().isPresent()) {
				settled = warmWhereItMatters(rounds);
			}
			WarmUp warmUp = new WarmUp(WarmUp.USERS, rounds.took(), rounds.all, settled, this.atMost);
			Console.line(what + ": " + warmUp);
			return Optional.of(warmUp);
		}
	}

	/**
	 * The warm-up's last rounds: one at each doubling of the users from
	 * {@value WarmUp#USERS} until throughput stops rising, then rounds at the busiest of
	 * them ({@link WarmUp#busiest}) until its compilers are quiet there (a busier load
	 * finds more to compile than two users). Whether they went quiet before the bound.
	 */
	private boolean warmWhereItMatters(Rounds rounds) {
		List<WarmUp.Round> ladder = new ArrayList<>(List.of(rounds.last()));
		for (int users = 2 * WarmUp.USERS; users <= this.maxUsers && rounds.timeLeft(); users *= 2) {
			ladder.add(rounds.run(users, Duration.ofSeconds(4)));
			if (rounds.last().throughput() <= 0 || !WarmUp.rose(ladder)) {
				break;
			}
		}
		int busiest = WarmUp.busiest(ladder);
		// Where the first rounds ran, their compilers are quiet.
		return busiest == WarmUp.USERS || rounds.untilQuiet(busiest, Duration.ofSeconds(4));
	}

	/**
	 * Loads the service at {@code users}, in rounds of one cycle ({@code latency} is the
	 * last measured there; a round lasts 1 to 4 s), until its compilers are quiet at that
	 * load or {@link Settling#AT_MOST} ran out. A warm-up at two users leaves code that
	 * only a busier load runs (a CPU-bound route at its ceiling's users kept both JVMs'
	 * compilers at 0.3 to 0.6 of a core through an A/B guard's blocks). Without the
	 * compilers' readings it runs no round: nothing would say when to stop.
	 */
	Settling settle(int users, Duration latency, String what) {
		try (Rounds rounds = new Rounds(what, Settling.AT_MOST)) {
			if (!rounds.readsCompilers()) {
				return new Settling(users, List.of(), false, Duration.ZERO);
			}
			boolean quiet = rounds.untilQuiet(users,
					clamp(latency.multipliedBy(4), Duration.ofSeconds(1), Duration.ofSeconds(4)));
			return new Settling(users, rounds.all, quiet, rounds.took());
		}
	}

	static Duration clamp(Duration value, Duration min, Duration max) {
		return (value.compareTo(min) < 0) ? min : (value.compareTo(max) > 0) ? max : value;
	}

	/**
	 * A warm-up's rounds so far, each of one cycle of its users, the compilers of the
	 * service's JVM where its JMX agent answers, and the time it has left.
	 */
	private final class Rounds implements AutoCloseable {

		private final String what;

		private final Duration atMost;

		private final Optional<JitWork> jit;

		private final long started = System.nanoTime();

		private final List<WarmUp.Round> all = new ArrayList<>();

		private JitWork.Reading before;

		private long toldAt = this.started;

		Rounds(String what, Duration atMost) {
			this.what = what;
			this.atMost = atMost;
			this.jit = compilers(WarmUpRun.this.service);
			this.before = read();
		}

		private static Optional<JitWork> compilers(AbstractServiceContainer<?> service) {
			try {
				return Optional.ofNullable(service)
					.flatMap(JmxAgent::of)
					.map((agent) -> JitWork.connect(agent, service));
			}
			catch (RuntimeException ex) {
				return Optional.empty();
			}
		}

		private JitWork.Reading read() {
			return this.jit.map(JitWork::read).orElseGet(() -> JitWork.Reading.none(System.nanoTime()));
		}

		boolean readsCompilers() {
			return this.before.compilerCpu().isPresent() || this.before.compileMillis().isPresent();
		}

		boolean timeLeft() {
			return System.nanoTime() - this.started < this.atMost.toNanos();
		}

		Duration took() {
			return Duration.ofNanos(System.nanoTime() - this.started);
		}

		WarmUp.Round last() {
			return this.all.get(this.all.size() - 1);
		}

		/**
		 * Rounds at {@code users} until the compilers are quiet there, at most
		 * {@value Settling#QUIET} of a core over {@link WarmUp#QUIET_FOR}, or the time
		 * ran out; whether they went quiet.
		 */
		boolean untilQuiet(int users, Duration longest) {
			List<WarmUp.Round> there = new ArrayList<>();
			while (timeLeft()) {
				there.add(run(users, longest));
				if (last().throughput() <= 0 || WarmUp.quiet(there, Settling.QUIET)) {
					return true;
				}
			}
			return false;
		}

		/**
		 * One round at {@code users}, a cycle long, 1 s at least and {@code longest} at
		 * most.
		 */
		WarmUp.Round run(int users, Duration longest) {
			long began = System.nanoTime();
			LoadResult round = ClosedLoopLoad.users(users)
				.warmUp(Duration.ZERO)
				.forCycles(1, clamp(this.atMost.minus(took()), Duration.ofSeconds(1), longest))
				.requestTimeout(WarmUpRun.this.requestTimeout)
				.named(this.what + ", warm-up")
				.quiet()
				.run(WarmUpRun.this.mix.toArray(Request[]::new));
			JitWork.Reading after = read();
			long requests = round.timeline().stream().mapToLong((second) -> second.succeeded() + second.failed()).sum();
			WarmUp.Round read = new WarmUp.Round(users, Duration.ofNanos(System.nanoTime() - began),
					round.meanLatency(), round.throughput(), after.compilerCoresSince(this.before),
					after.cpuPerRequestSince(this.before, requests));
			this.before = after;
			this.all.add(read);
			if (System.nanoTime() - this.toldAt >= Duration.ofSeconds(PROGRESS_SECONDS).toNanos()) {
				this.toldAt = System.nanoTime();
				Console.line(
						String
							.format(Locale.ROOT, "%s: warming up at %d users, %.0f s of at most %d s%s", this.what,
									users, took().toMillis() / 1000.0, this.atMost.toSeconds(),
									read.compilerCores().isPresent() ? String.format(Locale.ROOT,
											": the compilers at %.2f of a core", read.compilerCores().getAsDouble())
											: ""));
			}
			return read;
		}

		@Override
		public void close() {
			this.jit.ifPresent(JitWork::close);
		}

	}

}
