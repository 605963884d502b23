package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a sweep warmed the service up before its first step, so that W₁, on which every
 * model rests, is the service's latency and not its JIT's. Rounds of {@value #USERS}
 * users, each until every user went through a cycle (at least 1 s), until the mean
 * latency stops falling: a round no more than {@value #SETTLED_PERCENT} % below the round
 * before (a cold JVM's rounds fall 1235 → 400 → 158 → 150 ms; noise that rises is no
 * warming up), or the warm-up's time runs out.
 *
 * @param users the users of each round
 * @param took how long the warm-up lasted
 * @param means each round's mean latency, in order
 * @param settled whether the latency settled before the time ran out
 */
public record WarmUp(int users, Duration took, List<Duration> means, boolean settled) {

	/** Users of a warm-up round. */
	static final int USERS = 2;

	/** A round whose mean fell less than this (in percent) below the last has settled. */
	static final int SETTLED_PERCENT = 15;

	/** The longest a warm-up lasts unless the sweep says otherwise. */
	static final Duration DEFAULT_AT_MOST = Duration.ofSeconds(20);

	public WarmUp {
		means = List.copyOf(means);
	}

	/** Whether a round of mean {@code mean} after one of {@code before} has settled. */
	static boolean settled(Duration before, Duration mean) {
		return mean.toNanos() >= (1 - SETTLED_PERCENT / 100.0) * before.toNanos();
	}

	/** "warmed up in 4.1 s (2 users): mean 275 → 41 → 38 ms, settled" */
	@Override
	public String toString() {
		return String.format(Locale.ROOT, "warmed up in %.1f s (%d users): mean %s ms, %s",
				this.took.toMillis() / 1000.0, this.users,
				this.means.stream().map((mean) -> Long.toString(mean.toMillis())).collect(Collectors.joining(" → ")),
				this.settled ? "settled" : this.means.get(this.means.size() - 1).isZero()
						? "the route answered no request" : "not settled when the warm-up's time ran out");
	}

}
