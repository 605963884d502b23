package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;

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

	public WarmUp {
		means = List.copyOf(means);
	}

	/** "warmed up in 4.1 s (2 users): mean 275 → 41 → 38 ms, settled" */
	@Override
	public String toString() {
		return String.format(java.util.Locale.ROOT, "warmed up in %.1f s (%d users): mean %s ms, %s",
				this.took.toMillis() / 1000.0, this.users,
				this.means.stream().map((mean) -> Long.toString(mean.toMillis())).collect(Collectors.joining(" → ")),
				this.settled ? "settled" : this.means.get(this.means.size() - 1).isZero()
						? "the route answered no request" : "not settled when the warm-up's time ran out");
	}

	/** When a warm-up ends: its longest time. */
	record Rule(Duration atMost) {

		static final Rule DEFAULT = new Rule(Duration.ofSeconds(20));

		Rule atMost(Duration duration) {
			return new Rule(duration);
		}

		/** Warms up with {@code mix}; empty when the rule allows no time. */
		Optional<WarmUp> run(List<Request> mix, Duration requestTimeout, String name) {
			if (this.atMost.isZero()) {
				return Optional.empty();
			}
			long started = System.nanoTime();
			List<Duration> means = new ArrayList<>();
			boolean settled = false;
			while (System.nanoTime() - started < this.atMost.toNanos()) {
				Duration left = this.atMost.minusNanos(System.nanoTime() - started);
				LoadResult round = ClosedLoopLoad.users(USERS)
					.warmUp(Duration.ZERO)
					.forCycles(1, Sweep.clamp(left, Duration.ofSeconds(1), Duration.ofSeconds(6)))
					.requestTimeout(requestTimeout)
					.named(name + ", warm-up")
					.quiet()
					.run(mix.toArray(Request[]::new));
				if (round.succeeded() == 0) {
					// A route that fails is not warming up: the steps will say what it
					// answers.
					means.add(round.meanLatency());
					break;
				}
				Duration mean = round.meanLatency();
				if (!means.isEmpty()) {
					Duration before = means.get(means.size() - 1);
					settled = mean.toNanos() >= (1 - SETTLED_PERCENT / 100.0) * before.toNanos();
				}
				means.add(mean);
				if (settled) {
					break;
				}
			}
			return Optional.of(new WarmUp(USERS, Duration.ofNanos(System.nanoTime() - started), means, settled));
		}

	}

}
