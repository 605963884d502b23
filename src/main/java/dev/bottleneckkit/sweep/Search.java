package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.bottleneckkit.internal.Knobs;

/**
 * The search for the smallest limit of the capped resource that reaches a throughput: the
 * model (the ceiling a unit of the limit) picks a limit, a start and two steps measure
 * it, a limit that falls short is raised by what it missed.
 *
 * {@link Sweep#reaching(double)} asks for it; at most {@value #STARTS} starts are spent.
 *
 * @param target the throughput sought, requests per second
 * @param perUnit the sweep's ceiling over its limit: what the model gives a unit
 * @param step the smallest change of the limit
 * @param tries each limit started and measured, in order
 * @param unreachable why no limit was tried, when none was
 * @param took how long the search took, its starts included
 */
public record Search(double target, double perUnit, double step, List<Try> tries, Optional<String> unreachable,
		Duration took) {

	/** Starts with a limit a search may spend. */
	public static final int STARTS = 3;

	public Search {
		tries = List.copyOf(tries);
	}

	public static Search unreachable(double target, String why) {
		return new Search(target, 0, 1, List.of(), Optional.of(why), Duration.ZERO);
	}

	/** The first limit that reached the target. */
	public Optional<Try> found() {
		return this.tries.stream().filter((attempt) -> attempt.reached(this.target)).findFirst();
	}

	/** The service's starts the search spent: one a limit tried. */
	public int starts() {
		return this.tries.size();
	}

	/**
	 * "reaches 24.0 rps with Hikari 7: 27.1 rps measured (predicted 27.7, 3.95 rps a
	 * unit); a limit of 6 is predicted 23.7 rps; 1 start", "did not reach …", or "no
	 * limit searched for …: the next cap … lies below it".
	 */
	public String line() {
		if (this.unreachable.isPresent()) {
			return String.format(Locale.ROOT, "no limit searched for %.1f rps: %s", this.target,
					this.unreachable.get());
		}
		String starts = this.tries.size() + ((this.tries.size() == 1) ? " start" : " starts");
		Optional<Try> found = found();
		if (found.isEmpty()) {
			return String.format(Locale.ROOT, "did not reach %.1f rps in %s: %s — the cap moved elsewhere", this.target,
					starts,
					this.tries.stream()
						.map((attempt) -> String.format(Locale.ROOT, "%s %.1f rps", attempt.knob(), attempt.measured()))
						.collect(Collectors.joining(", ")));
		}
		Try reached = found.get();
		double less = reached.limit() - this.step;
		Optional<Try> lessTried = this.tries.stream()
			.filter((attempt) -> Math.abs(attempt.limit() - less) < this.step / 2)
			.findFirst();
		String smaller = (less < this.step / 2) ? "no smaller limit exists" : lessTried
			.map((attempt) -> String.format(Locale.ROOT, "%s measured %.1f rps", attempt.knob(), attempt.measured()))
			.orElse(String.format(Locale.ROOT, "a limit of %s is predicted %.1f rps", Knobs.count(less),
					less * this.perUnit));
		return String.format(Locale.ROOT,
				"reaches %.1f rps with %s: %.1f rps measured (predicted %.1f, %.2f rps a unit of the limit); %s;"
						+ " %s",
				this.target, reached.knob(), reached.measured(), reached.predicted(), this.perUnit, smaller, starts);
	}

	@Override
	public String toString() {
		return line();
	}

	/**
	 * The limit the model gives for {@code target}: the ceiling scales with the limit,
	 * {@code perUnit} rps a unit, rounded up to {@code step}.
	 */
	public static double firstLimit(double target, double perUnit, double step) {
		return roundUp(target / perUnit, step);
	}

	/**
	 * The limit after one that measured {@code measured} rps short of {@code target}:
	 * raised by the share it missed, and by one step at least.
	 */
	public static double nextLimit(double tried, double target, double measured, double step) {
		double scaled = (measured > 0) ? tried * target / measured : 2 * tried;
		return Math.max(tried + step, roundUp(scaled, step));
	}

	private static double roundUp(double value, double step) {
		// A hair under a whole step is that step: 6.0000001 is 6, not 7.
		return Math.max(step, Math.ceil(value / step - 1e-9) * step);
	}

	/**
	 * One limit started and measured.
	 *
	 * @param knob the knob at that limit, as its name reads
	 * @param limit the limit
	 * @param predicted the throughput the model predicted for it
	 * @param measured the highest throughput of its two steps
	 */
	public record Try(String knob, double limit, double predicted, double measured) {

		/** Whether this limit reached {@code target} rps. */
		public boolean reached(double target) {
			return this.measured >= target;
		}

	}

}
