package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.bottleneckkit.sweep.WarmUp;

/**
 * How one side of an A/B run settled at the ceiling's users before its blocks
 * ({@link WarmUpRun#settle}): its rounds, whether its compilers went quiet, how long it
 * took.
 *
 * @param users the users of each round
 * @param rounds each round, in order, with the share of a core its compilers took
 * @param quiet whether the compilers went quiet before the time ran out
 * @param took how long it lasted
 */
record Settling(int users, List<WarmUp.Round> rounds, boolean quiet, Duration took) {

	/**
	 * The share of a core a side's compilers may take at the ceiling's users for its
	 * blocks to measure its code and not its JIT: a tenth, twice a warm-up's at two users
	 * ({@value WarmUp#QUIET}), as a busier load finds more to compile.
	 */
	static final double QUIET = 0.1;

	/** The longest one side settles: a CPU-bound Spring route settled in 5 to 15 s. */
	static final Duration AT_MOST = Duration.ofSeconds(30);

	Settling {
		rounds = List.copyOf(rounds);
	}

	/**
	 * "the compilers 0.41 → 0.12 → 0.03 of a core in 6.2 s, quiet", or "its compilers not
	 * read".
	 */
	@Override
	public String toString() {
		if (this.rounds.isEmpty()) {
			return "its compilers not read";
		}
		return this.rounds.stream()
			.map((round) -> round.compilerCores().isPresent()
					? String.format(Locale.ROOT, "%.2f", round.compilerCores().getAsDouble()) : "?")
			.collect(Collectors.joining(" → ", "the compilers ", " of a core"))
				+ String.format(Locale.ROOT, " in %.1f s, %s", this.took.toMillis() / 1000.0,
						this.quiet ? "quiet" : "not quiet when its " + AT_MOST.toSeconds() + " s ran out");
	}

}
