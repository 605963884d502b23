package dev.bottleneckkit.sweep.internal.analysis;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKind;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.run.Readings;

/**
 * The reading of a {@link Confirmation}'s steps: whether the ceiling moved the knob's
 * way, and the prediction it is held to.
 */
public final class ConfirmationReading {

	private ConfirmationReading() {
	}

	/**
	 * The confirmation's reading of {@code steps}, measured with a knob that turned the
	 * capped resource's limit {@code factor} times: the ceiling moved the knob's way or
	 * not, and the prediction it is held to, the lowest of the raised ceiling, the next
	 * cap as the best of these steps read it, and the users over W₁.
	 */
	public static Confirmation of(Readings sweep, Analysis analysis, String knob, double factor, List<Step> steps,
			Duration took) {
		double after = steps.stream().mapToDouble(Step::throughput).max().orElse(0);
		Optional<Step> best = steps.stream().max(Comparator.comparingDouble(Step::throughput));
		// A limit the knob raises scales the ceiling: what the resource delivered, times
		// the knob's factor (its model may lie a few per cent off the ceiling). Not a
		// kind's read again on the knob's own step (ResourceKind.asRaised): the CPU's,
		// which moves in cores; the carriers', which share the same cores (each waits
		// longer for one, and a carrier is taken while it waits): where the knob's own
		// step read them holding a request longer, their model there is the lower bound;
		// where a warmer JVM made a request cheaper, the ceiling times the factor stays.
		Optional<ResourceKind.Raised> asRead = analysis.verdict()
			.cap()
			.flatMap((cap) -> best.flatMap(ResourceKinds.of(cap)::asRaised))
			.filter((read) -> read.inCores() || read.bound().model().rps() < sweep.ceiling() * factor);
		Optional<Verdict.Bound> cpu = asRead.filter(ResourceKind.Raised::inCores).map(ResourceKind.Raised::bound);
		Optional<String> raisedAsRead = asRead.map((read) -> read.words() + ", " + read.bound().model().explain());
		double raised = asRead.map((read) -> read.bound().model().rps()).orElse(sweep.ceiling() * factor);
		String raisedBy = raisedAsRead.orElse(String.format(Locale.ROOT, "%s the ceiling of %.1f rps, the limit %s",
				(factor == 2) ? "twice" : Knobs.count(factor) + " ×", sweep.ceiling(),
				(factor == 2) ? "doubled" : "raised"));
		// The next cap as the best step with the knob turned read it: a model and the
		// figure it is compared with come from the same step.
		Optional<Verdict.Bound> turnedNext = best.isPresent()
				? Attribution.nextCap(analysis, sweep.ceiling(), best.get()) : analysis.nextCap();
		Optional<Verdict.Bound> next = turnedNext.filter((bound) -> bound.model().rps() < raised);
		double predicted = next.map((bound) -> bound.model().rps()).orElse(raised);
		String by = next.map((bound) -> "the next cap, " + bound).orElse(raisedBy);
		// The users of the last step bound it too: users / W₁ (Little's law, no queue).
		int users = steps.isEmpty() ? 0 : steps.get(steps.size() - 1).users();
		double byUsers = users / (sweep.oneUserLatency().toNanos() / 1e9);
		if (users > 0 && byUsers < predicted) {
			predicted = byUsers;
			by = String.format(Locale.ROOT, "the users, %d / W₁ %.3f s", users, sweep.oneUserLatency().toNanos() / 1e9);
		}
		// Under a CPU cap, in cores: each ceiling times the CPU a request took there.
		OptionalDouble coresBefore = cpu.isPresent() ? analysis.verdict()
			.ceilingModel()
			.map((model) -> OptionalDouble.of(sweep.ceiling() * seconds(model.hold())))
			.orElse(OptionalDouble.empty()) : OptionalDouble.empty();
		OptionalDouble coresAfter = coresBefore.isPresent()
				? OptionalDouble.of(after * seconds(cpu.get().model().hold())) : OptionalDouble.empty();
		boolean moved = moved(factor, sweep.ceiling(), after)
				&& (coresBefore.isEmpty() || moved(factor, coresBefore.getAsDouble(), coresAfter.getAsDouble()));
		return new Confirmation(knob, moved, sweep.ceiling(), after, predicted, by, steps, turnedNext, took,
				coresBefore, coresAfter);
	}

	/**
	 * Whether {@code after} moved from {@code before} the way a knob of {@code factor}
	 * turns, by at least {@value AnalysisPolicy#ROSE_PERCENT} %.
	 */
	private static boolean moved(double factor, double before, double after) {
		double move = 1 + AnalysisPolicy.ROSE_PERCENT / 100.0;
		return (factor < 1) ? after <= before / move : after >= move * before;
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

}
