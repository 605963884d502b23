package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.WarmUp;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;

/**
 * What a sweep's run measured, before anything is concluded from it: the steps at rising
 * concurrency, whether throughput stopped rising, the warm-up, what the probes could not
 * see, and how long it took. The analysis ({@code Attribution}) reads it; the result
 * ({@code SweepResult}) holds it.
 *
 * @param steps the steps, one user first, doubling
 * @param saturated whether throughput stopped rising within the sweep
 * @param warmUp how the service was warmed up before the first step, when it was
 * @param blind what the probes could not see, each in one line naming what to change
 * @param meters where the service's meters were read
 * ({@code /actuator/prometheus (Prometheus
 * text)}), when they were
 * @param took how long the warm-up and the steps took
 * @param settings what the kinds read of the service's configuration once after the
 * steps, where no meter gives it (a rate limiter's rate): none where they read none
 */
public record Readings(List<Step> steps, boolean saturated, Optional<WarmUp> warmUp, List<String> blind,
		Optional<String> meters, Duration took, List<Record> settings) {

	public Readings {
		steps = List.copyOf(steps);
		blind = List.copyOf(blind);
		settings = List.copyOf(settings);
	}

	/** Readings with no setting read. */
	public Readings(List<Step> steps, boolean saturated, Optional<WarmUp> warmUp, List<String> blind,
			Optional<String> meters, Duration took) {
		this(steps, saturated, warmUp, blind, meters, took, List.of());
	}

	/** Steps read by hand, every probe seeing, no warm-up: for tests of the analysis. */
	public static Readings of(List<Step> steps, boolean saturated) {
		return new Readings(steps, saturated, Optional.empty(), List.of(), Optional.empty(), Duration.ZERO);
	}

	/** The settings of {@code type} the kinds read ({@link #settings}). */
	public <T extends Record> List<T> settings(Class<T> type) {
		return this.settings.stream().filter(type::isInstance).map(type::cast).toList();
	}

	/** The highest throughput of any step, requests per second. */
	public double ceiling() {
		return this.steps.stream().mapToDouble(Step::throughput).max().orElse(0);
	}

	/**
	 * The first step at {@value AnalysisPolicy#KNEE_SHARE} of the ceiling or more, when
	 * saturated.
	 */
	public Optional<Step> knee() {
		if (!this.saturated) {
			return Optional.empty();
		}
		double ceiling = ceiling();
		return this.steps.stream()
			.filter((step) -> step.throughput() >= AnalysisPolicy.KNEE_SHARE * ceiling)
			.findFirst();
	}

	/**
	 * How warm the service was: the warm-up's seconds and how it ended, and the share of
	 * a core its compilers took at the knee (the last step without one), and how long the
	 * sweep took: "warm-up 14.2 s, the compilers quiet; at the knee (8 users) they took
	 * 0.02 of a core; the sweep took 71 s, warm-up included".
	 */
	public String warmth() {
		String warmedUp = this.warmUp.map(Readings::howItEnded).orElse("no warm-up");
		Step knee = knee().orElse(last());
		String where = knee().isPresent() ? "the knee" : "the last step";
		String atTheKnee = knee.compilerCores().isPresent()
				? String.format(Locale.ROOT, "; at %s (%s) they took %.2f of a core%s", where,
						(knee.users() == 1) ? "1 user" : knee.users() + " users", knee.compilerCores().getAsDouble(),
						knee.warming() ? ": still warming" : "")
				: "; the compilers were not read in the steps";
		String took = this.took.isZero() ? "" : String.format(Locale.ROOT, "; the sweep took %.0f s, warm-up included",
				this.took.toMillis() / 1000.0);
		return warmedUp + atTheKnee + took;
	}

	/** "warm-up 14.2 s, the compilers quiet", and the other ways a warm-up ends. */
	private static String howItEnded(WarmUp done) {
		String ended;
		if (done.routeFailed()) {
			ended = "the route answered no request";
		}
		else if (!done.compilersRead()) {
			ended = done.settled() ? "the latency settled" : "the latency not settled";
		}
		else {
			ended = done.settled() ? "the compilers quiet"
					: String.format(Locale.ROOT, "the compilers at %.2f of a core when its %d s ran out",
							done.compilersAtTheEnd().getAsDouble(), done.atMost().toSeconds());
		}
		return String.format(Locale.ROOT, "warm-up %.1f s, %s", done.took().toMillis() / 1000.0, ended);
	}

	/**
	 * W₁: what a request takes when it waits for nothing, the lowest mean latency of the
	 * first step and of the steps below the knee that had no errors. One user's mean is
	 * the first such reading, yet its window is the sweep's shortest and its JVM the
	 * coldest, so it can read longer than the steps after it, where nothing waits either;
	 * a pool's model over it then falls short of the ceiling the pool makes.
	 */
	public Duration oneUserLatency() {
		double ceiling = ceiling();
		Duration lowest = this.steps.get(0).meanLatency();
		for (Step step : this.steps) {
			if (step.throughput() < AnalysisPolicy.KNEE_SHARE * ceiling && step.result().errorCount() == 0
					&& step.meanLatency().compareTo(lowest) < 0) {
				lowest = step.meanLatency();
			}
		}
		return lowest;
	}

	/** The last step: the most users. */
	public Step last() {
		return this.steps.get(this.steps.size() - 1);
	}

}
