package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * How a sweep warmed the service up before its first step, so that W₁, on which every
 * model rests, and the CPU a request costs are the service's and not its JIT's. Rounds of
 * {@value #USERS} users first, each until every user went through a cycle (at least 1 s).
 * Where the kit reads the service's JVM over JMX, they end when its JIT compilers are
 * quiet, at most {@value #QUIET} of a core over the last {@link #QUIET_FOR}, and the CPU
 * a request costs has stopped falling (a round no more than {@value #SETTLED_PERCENT} %
 * below the round before): a latency that settled says nothing of the code under it, as a
 * route that waits for its database settles long before its compilers are done. Then it
 * warms where it matters: a round at each doubling of the users until throughput stops
 * rising, and rounds at the users whose request took the most CPU of its own
 * ({@link #busiest}) until the compilers are quiet there too: code that only a busier
 * load runs compiles only under it. Where the JVM is not read, it ends when the mean
 * latency stops falling at {@value #USERS} users. It never lasts more than
 * {@code atMost}: a warm-up cut short there says so, and the steps whose compilers were
 * still busy say so too ({@link Step#warming()}).
 *
 * @param users the users of its first rounds
 * @param took how long the warm-up lasted
 * @param rounds each round, in order
 * @param settled whether the warm-up ended by its rule before {@code atMost}
 * @param atMost the longest it could last
 */
public record WarmUp(int users, Duration took, List<Round> rounds, boolean settled, Duration atMost) {

	/** Users of a warm-up round. */
	public static final int USERS = 2;

	/**
	 * A round whose figure fell less than this (in percent) below the last has settled.
	 */
	static final int SETTLED_PERCENT = 15;

	/**
	 * The share of a core the compilers may take over {@link #QUIET_FOR} for the JVM to
	 * count as warm: compiling a twentieth of a core leaves the figures the service's.
	 */
	static final double QUIET = 0.05;

	/** How long the compilers must be quiet for. */
	static final Duration QUIET_FOR = Duration.ofSeconds(2);

	/**
	 * The longest a warm-up lasts unless the sweep says otherwise: a Spring Boot
	 * service's compilers may work for a minute and more under load after its start (a
	 * Thymeleaf page's still took 0.3 to 0.6 of a core after a warm-up of 60 s).
	 */
	static final Duration DEFAULT_AT_MOST = Duration.ofMinutes(3);

	/**
	 * A doubling of the warm-up's users that raised throughput by less than this share
	 * found the service's cap: its last rung.
	 */
	static final double ROSE = 1.15;

	public WarmUp {
		rounds = List.copyOf(rounds);
	}

	/**
	 * One round of the warm-up.
	 *
	 * @param users its users
	 * @param length how long it ran
	 * @param mean its mean latency
	 * @param throughput its successful requests per second
	 * @param compilerCores the share of a core the JIT compilers took over it, when read
	 * @param cpuPerRequest the service JVM's CPU over it over its requests, when read
	 */
	public record Round(int users, Duration length, Duration mean, double throughput, OptionalDouble compilerCores,
			Optional<Duration> cpuPerRequest) {

		/** A round of {@value WarmUp#USERS} users whose throughput was not kept. */
		public Round(Duration length, Duration mean, OptionalDouble compilerCores, Optional<Duration> cpuPerRequest) {
			this(USERS, length, mean, 0, compilerCores, cpuPerRequest);
		}

		/**
		 * The CPU a request took of its own: the JVM's over the round's requests less the
		 * compilers' share, their cores over the throughput; empty where either was not
		 * read.
		 */
		public Optional<Duration> ownCpuPerRequest() {
			if (this.cpuPerRequest.isEmpty() || this.compilerCores.isEmpty() || this.throughput <= 0) {
				return Optional.empty();
			}
			long compilers = Math.round(this.compilerCores.getAsDouble() / this.throughput * 1e9);
			return Optional.of(Duration.ofNanos(Math.max(0, this.cpuPerRequest.get().toNanos() - compilers)));
		}

	}

	/**
	 * Whether the last of {@code ladder}'s rounds, each at twice the users of the one
	 * before, raised throughput by {@value #ROSE} times or more.
	 */
	public static boolean rose(List<Round> ladder) {
		if (ladder.size() < 2) {
			return true;
		}
		return ladder.get(ladder.size() - 1).throughput() >= ROSE * ladder.get(ladder.size() - 2).throughput();
	}

	/**
	 * The users of the round of {@code ladder} whose request took the most CPU of its own
	 * ({@link Round#ownCpuPerRequest}): where the service works hardest a request, as
	 * contention and a fuller pool make it, and where the code that runs only under load
	 * is compiled. The last round's users where none was read.
	 */
	public static int busiest(List<Round> ladder) {
		return ladder.stream()
			.filter((round) -> round.ownCpuPerRequest().isPresent())
			.max(Comparator.comparing((Round round) -> round.ownCpuPerRequest().get()))
			.map(Round::users)
			.orElse(ladder.get(ladder.size() - 1).users());
	}

	/** The users of the warm-up's last round: where it ended. */
	public int lastUsers() {
		return this.rounds.isEmpty() ? this.users : this.rounds.get(this.rounds.size() - 1).users();
	}

	/**
	 * Whether its last rounds ran at one count of users, more than one round there after
	 * its first rounds: where it warmed until the compilers were quiet. A ladder whose
	 * busiest users were its first rounds' ends on one round at its top.
	 */
	private boolean endedWhereItMatters() {
		int last = lastUsers();
		long there = 0;
		for (int i = this.rounds.size() - 1; i >= 0 && this.rounds.get(i).users() == last; i--) {
			there++;
		}
		return last != this.users && there > 1;
	}

	/** Each round's mean latency, in order. */
	public List<Duration> means() {
		return this.rounds.stream().map(Round::mean).toList();
	}

	/**
	 * Whether the route answered no request in the warm-up's last round: it ended there.
	 */
	public boolean routeFailed() {
		return !this.settled && !this.rounds.isEmpty() && this.rounds.get(this.rounds.size() - 1).mean().isZero();
	}

	/** Whether the warm-up read the JIT compilers (the service's JMX agent answered). */
	public boolean compilersRead() {
		return !this.rounds.isEmpty() && this.rounds.stream().allMatch((round) -> round.compilerCores().isPresent());
	}

	/** The share of a core the compilers took in the last round, when read. */
	public OptionalDouble compilersAtTheEnd() {
		return this.rounds.isEmpty() ? OptionalDouble.empty() : this.rounds.get(this.rounds.size() - 1).compilerCores();
	}

	/**
	 * Whether the warm-up is done after {@code rounds}: the compilers quiet and a
	 * request's CPU no longer falling where the compilers were read, else the latency no
	 * longer falling.
	 */
	public static boolean settled(List<Round> rounds) {
		if (rounds.size() < 2) {
			return false;
		}
		Round last = rounds.get(rounds.size() - 1);
		Round before = rounds.get(rounds.size() - 2);
		if (last.compilerCores().isEmpty()) {
			return notFalling(before.mean(), last.mean());
		}
		return quiet(rounds) && last.cpuPerRequest().isPresent() && before.cpuPerRequest().isPresent()
				&& notFalling(before.cpuPerRequest().get(), last.cpuPerRequest().get());
	}

	/**
	 * Whether the compilers took at most {@value #QUIET} of a core over the last rounds
	 * that span {@link #QUIET_FOR}.
	 */
	public static boolean quiet(List<Round> rounds) {
		return quiet(rounds, QUIET);
	}

	/**
	 * Whether the compilers took at most {@code cores} of a core over the last rounds
	 * that span {@link #QUIET_FOR}.
	 */
	public static boolean quiet(List<Round> rounds, double cores) {
		double coreNanos = 0;
		long nanos = 0;
		for (int i = rounds.size() - 1; i >= 0 && nanos < QUIET_FOR.toNanos(); i--) {
			Round round = rounds.get(i);
			if (round.compilerCores().isEmpty()) {
				return false;
			}
			coreNanos += round.compilerCores().getAsDouble() * round.length().toNanos();
			nanos += round.length().toNanos();
		}
		return nanos >= QUIET_FOR.toNanos() && coreNanos / nanos <= cores;
	}

	/**
	 * Whether {@code now} fell no more than {@value #SETTLED_PERCENT} % below
	 * {@code before}.
	 */
	static boolean notFalling(Duration before, Duration now) {
		return now.toNanos() >= (1 - SETTLED_PERCENT / 100.0) * before.toNanos();
	}

	/**
	 * "warmed up in 14.2 s (2 users): the compilers 0.92 → 0.31 → 0.03 of a core, a
	 * request's CPU 186 → 31 → 18 ms, quiet", "warmed up in 31.0 s (2, 4, 8, 16 users,
	 * the last rounds at 8): the compilers 0.92 → … → 0.04 of a core, …" (a ladder whose
	 * busiest users were 2 says "(2, 4, 8 users)"), or "warmed up in 4.1 s (2 users):
	 * mean 275 → 41 → 38 ms, settled"
	 */
	@Override
	public String toString() {
		List<Integer> users = this.rounds.stream().map(Round::users).distinct().toList();
		String head = String.format(Locale.ROOT, "warmed up in %.1f s (%s): ", this.took.toMillis() / 1000.0,
				(users.size() <= 1) ? this.users + " users"
						: users.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " users"
								+ (endedWhereItMatters() ? ", the last rounds at " + lastUsers() : ""));
		if (this.rounds.isEmpty()) {
			return head + "no round";
		}
		if (routeFailed()) {
			return head + "mean " + joined(means()) + " ms, the route answered no request";
		}
		if (compilersRead()) {
			String cpu = this.rounds.stream().allMatch((round) -> round.cpuPerRequest().isPresent())
					? ", a request's CPU " + joined(this.rounds.stream().map((r) -> r.cpuPerRequest().get()).toList())
							+ " ms"
					: "";
			return head + "the compilers "
					+ this.rounds.stream()
						.map((round) -> String.format(Locale.ROOT, "%.2f", round.compilerCores().getAsDouble()))
						.collect(Collectors.joining(" → "))
					+ " of a core" + cpu
					+ (this.settled ? ", quiet" : String.format(Locale.ROOT,
							", not quiet when the warm-up's %d s ran out: the steps say where the compilers still worked",
							this.atMost.toSeconds()));
		}
		return head + "mean " + joined(means()) + " ms, "
				+ (this.settled ? "settled" : "not settled when the warm-up's time ran out");
	}

	private static String joined(List<Duration> durations) {
		return durations.stream().map((each) -> Long.toString(each.toMillis())).collect(Collectors.joining(" → "));
	}

}
