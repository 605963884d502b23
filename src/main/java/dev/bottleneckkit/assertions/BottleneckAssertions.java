package dev.bottleneckkit.assertions;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResult.Confirmation;
import dev.bottleneckkit.sweep.SweepResult.Search;
import dev.bottleneckkit.sweep.Verdict;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Percentage;

/**
 * Entry point for the kit's assertions, in the style of AssertJ's {@code Assertions}: a
 * static import of {@code assertThat} gives the kit's assertions for its types and
 * AssertJ's for everything else.
 */
public class BottleneckAssertions extends Assertions {

	/**
	 * Assertions on a load run: throughput against a {@code Ceiling}, latency, errors by
	 * kind.
	 */
	public static LoadResultAssert assertThat(LoadResult actual) {
		return new LoadResultAssert(actual);
	}

	/**
	 * Assertions on a sweep: the resource its verdict names, where the service is not
	 * capped.
	 */
	public static SweepResultAssert assertThat(SweepResult actual) {
		return new SweepResultAssert(actual);
	}

	/** Assertions on pinned-thread events: none, at least n, every stack in some code. */
	public static PinningReportAssert assertThat(PinningReport actual) {
		return new PinningReportAssert(actual);
	}

	/**
	 * AssertJ assertions on a {@link SweepResult}: which resource caps the service, and
	 * where it does not. A failure prints the verdict and every step, so that the message
	 * alone says what the sweep saw.
	 */
	public static class SweepResultAssert extends AbstractAssert<SweepResultAssert, SweepResult> {

		/**
		 * Fails with {@code format} filled in {@code Locale.ROOT}: a verdict reads the
		 * same on a German laptop ("10.0 rps", never "10,0 rps").
		 */
		private void failRoot(String format, Object... arguments) {
			failWithMessage("%s", String.format(java.util.Locale.ROOT, format, arguments));
		}

		public SweepResultAssert(SweepResult actual) {
			super(actual, SweepResultAssert.class);
		}

		/**
		 * The sweep saturated and its verdict names {@code resource}, with the model that
		 * explains the ceiling.
		 */
		public SweepResultAssert isCappedBy(Resource resource) {
			isNotNull();
			routeAnswersOneUser();
			if (this.actual.verdict().cap().filter(resource::equals).isEmpty()) {
				failRoot("expected the cap to be %s, but the sweep says: %s%n%s", resource.description(),
						this.actual.verdict(), this.actual.table());
			}
			this.actual.confirmation()
				.filter((confirmation) -> !confirmation.confirmed())
				.ifPresent((confirmation) -> failRoot(
						"the sweep names %s, but the verdict was put to the test and did not hold: %s%n%s",
						resource.description(), confirmation.line(), this.actual.table()));
			return this;
		}

		/**
		 * The verdict was put to the test ({@code Sweep.confirming()}) and held: with the
		 * knob turned the ceiling rose, to within {@code tolerance} (1 % to 100 %,
		 * {@code withPercentage(10)}) of what the models predicted.
		 */
		public SweepResultAssert isConfirmedWithin(Percentage tolerance) {
			isNotNull();
			double share = share(tolerance, 100);
			if (this.actual.confirmation().isEmpty()) {
				failRoot("the verdict was not put to the test (Sweep.confirming(), a verdict that names a resource"
						+ " with a knob): %s%n%s", this.actual.verdict(), this.actual.table());
				return this;
			}
			Confirmation confirmation = this.actual.confirmation().get();
			if (!confirmation.confirmed()) {
				failRoot("the verdict did not hold: %s%n%s", confirmation.line(), this.actual.table());
			}
			if (confirmation.predictionError() > share) {
				failRoot(
						"the verdict held, but the ceiling with the knob turned is %d %% from its prediction,"
								+ " allowed %d %%: %s%n%s",
						Math.round(confirmation.predictionError() * 100), Math.round(share * 100), confirmation.line(),
						this.actual.table());
			}
			return this;
		}

		/**
		 * The verdict was put to the test and did not hold: turning the knob left the
		 * ceiling where it was (a knob of a resource that is not the cap).
		 */
		public SweepResultAssert isNotConfirmed() {
			isNotNull();
			if (this.actual.confirmation().isEmpty() || this.actual.confirmation().get().confirmed()) {
				failRoot("expected the knob not to move the ceiling, but: %s%n%s",
						this.actual.confirmation()
							.map(Confirmation::line)
							.orElse("the verdict was not put to the test"),
						this.actual.table());
			}
			return this;
		}

		/**
		 * The search ({@code Sweep.reaching(rps)}) found a limit of the capped resource
		 * that reaches its target, in at most {@code starts} (1 to 10) starts of the
		 * service.
		 */
		public SweepResultAssert reachedItsTargetWithin(int starts) {
			isNotNull();
			Knobs.between("starts", starts, 1, 10);
			if (this.actual.search().isEmpty()) {
				failRoot("no limit was searched for (Sweep.reaching(rps), a verdict that names a resource): %s%n%s",
						this.actual.verdict(), this.actual.table());
				return this;
			}
			Search search = this.actual.search().get();
			if (search.found().isEmpty()) {
				failRoot("no limit reached the target: %s%n%s", search.line(), this.actual.table());
			}
			if (search.starts() > starts) {
				failRoot("the search took %d starts, allowed %d: %s%n%s", search.starts(), starts, search.line(),
						this.actual.table());
			}
			return this;
		}

		/**
		 * The sweep saturated and no resource's model explains its ceiling: the verdict
		 * names nothing (its candidates and what the probes could not see are in its
		 * line).
		 */
		public SweepResultAssert isUnexplained() {
			isNotNull();
			if (!(this.actual.verdict() instanceof Verdict.Unexplained)) {
				failRoot("expected no resource to explain the ceiling, but the sweep says: %s%n%s",
						this.actual.verdict(), this.actual.table());
			}
			return this;
		}

		/**
		 * The load generator, not the service, was the cap: the sweep says nothing of the
		 * service.
		 */
		public SweepResultAssert isBoundByTheGenerator() {
			isNotNull();
			if (!(this.actual.verdict() instanceof Verdict.GeneratorBound)) {
				failRoot("expected the load generator to be the cap, but the sweep says: %s%n%s", this.actual.verdict(),
						this.actual.table());
			}
			return this;
		}

		/**
		 * The verdict does not name {@code resource}: a fix removed that cap, whatever
		 * else may cap the service.
		 */
		public SweepResultAssert isNotCappedBy(Resource resource) {
			isNotNull();
			everyStepMostlyAnswered();
			if (this.actual.verdict().cap().filter(resource::equals).isPresent()) {
				failRoot("expected %s not to be the cap any more, but the sweep says: %s%n%s", resource.description(),
						this.actual.verdict(), this.actual.table());
			}
			return this;
		}

		/** Throughput kept rising up to the sweep's last step: no cap within it. */
		public SweepResultAssert hasNoCap() {
			isNotNull();
			everyStepMostlyAnswered();
			if (this.actual.saturated()) {
				failRoot("expected no cap up to %d users, but the sweep says: %s%n%s", lastUsers(),
						this.actual.verdict(), this.actual.table());
			}
			return this;
		}

		/**
		 * The service is not capped below {@code rps} requests per second: the sweep
		 * reached that rate, and no knee below it. A sweep that stopped short of
		 * {@code rps} (too few users) says nothing about it and fails.
		 */
		public SweepResultAssert hasNoCapBelow(double rps) {
			isNotNull();
			Knobs.between("rps", rps, 0.001, 1_000_000.0);
			everyStepMostlyAnswered();
			if (!this.actual.saturated() && this.actual.ceiling() < rps) {
				failRoot(
						"expected no cap below %s, but the sweep never reached it: it stopped at %d users and %s, still"
								+ " rising; sweep up to more users (upToUsers) to reach %s%n%s",
						rate(rps), lastUsers(), rate(this.actual.ceiling()), rate(rps), this.actual.table());
			}
			if (this.actual.saturated() && this.actual.ceiling() < rps) {
				failRoot("expected no cap below %s, but the service stopped at %s: %s%n%s",
						String.format(Locale.ROOT, "%.1f rps", rps),
						String.format(Locale.ROOT, "%.1f rps", this.actual.ceiling()), this.actual.verdict(),
						this.actual.table());
			}
			return this;
		}

		/**
		 * The measured ceiling lies within {@code tolerance} (1 % to 100 %) of what
		 * Little's law allows the named resource ({@code limit / W}): the resource
		 * explains the number, not only the shape.
		 */
		public SweepResultAssert hasCeilingNearItsModel(Percentage tolerance) {
			isNotNull();
			double share = share(tolerance, 100);
			if (!(this.actual.verdict() instanceof Verdict.Capped capped)) {
				failRoot("the verdict names no resource, so it has no model to hold the ceiling against: %s%n%s",
						this.actual.verdict(), this.actual.table());
				return this;
			}
			if (capped.modelError() > share) {
				failRoot("the ceiling is %d %% from its model, allowed %d %%: %s%n%s",
						Math.round(capped.modelError() * 100), Math.round(share * 100), this.actual.verdict(),
						this.actual.table());
			}
			return this;
		}

		/**
		 * Held against the same sweep (by name) in {@code baseline}, e.g. main's last
		 * run: the same resource caps it, and its ceiling is no lower than the baseline's
		 * beyond 3 × the spread of the steps at the ceiling (at least 5 %). Fails with
		 * the before / after lines; passes when the baseline has no such sweep (a new
		 * one).
		 */
		public SweepResultAssert comparedWith(Baseline baseline) {
			isNotNull();
			baseline.compare(this.actual)
				.filter(Comparison::regressed)
				.ifPresent((comparison) -> failRoot("%s regressed against the baseline %s:%s%n%s", this.actual.name(),
						comparison.baseline(), comparison.regressionLines(), this.actual.table()));
			return this;
		}

		/**
		 * A step whose answers are mostly errors measures the errors: this share of
		 * failed answers or more.
		 */
		static final double MOSTLY_ERRORS = 0.5;

		/**
		 * A route that fails for one user is broken, not capped: every claim about its
		 * cap would be read off errors (a 404 or 401 for every request reads "no cap").
		 */
		private void routeAnswersOneUser() {
			Step first = this.actual.steps().get(0);
			if (mostlyErrors(first)) {
				failRoot(
						"the route fails for one user, so the sweep says nothing about its cap: %s — check the route,"
								+ " its method and headers, and the service's log%n%s",
						errors(first), this.actual.table());
			}
		}

		/**
		 * No step whose answers were mostly errors: a claim that nothing caps the service
		 * needs answers.
		 */
		private void everyStepMostlyAnswered() {
			routeAnswersOneUser();
			for (Step step : this.actual.steps()) {
				if (mostlyErrors(step)) {
					failRoot(
							"with %d users most answers were errors (%s), so the sweep cannot say nothing caps the"
									+ " service: errors are how a cap that turns users away shows%n%s",
							step.users(), errors(step), this.actual.table());
				}
			}
		}

		private static boolean mostlyErrors(Step step) {
			long completed = step.result().completed();
			return completed == 0 || step.result().errorCount() >= MOSTLY_ERRORS * completed;
		}

		private static String errors(Step step) {
			if (step.result().completed() == 0) {
				return "no answer at all in " + Knobs.human(step.result().window());
			}
			return step.result().errorCount() + " of " + step.result().completed() + " answers failed: "
					+ byKind(step.result().errors());
		}

		private static String rate(double rps) {
			return String.format(Locale.ROOT, "%.1f rps", rps);
		}

		private int lastUsers() {
			return this.actual.steps().stream().mapToInt(Step::users).max().orElse(0);
		}

	}

	/**
	 * AssertJ assertions on a {@link LoadResult} that explain the cap when they fail: the
	 * message names the resource, its limit and latency, and what Little's law makes of
	 * them.
	 */
	public static class LoadResultAssert extends AbstractAssert<LoadResultAssert, LoadResult> {

		/**
		 * Fails with {@code format} filled in {@code Locale.ROOT}: a verdict reads the
		 * same on a German laptop ("10.0 rps", never "10,0 rps").
		 */
		private void failRoot(String format, Object... arguments) {
			failWithMessage("%s", String.format(java.util.Locale.ROOT, format, arguments));
		}

		public LoadResultAssert(LoadResult actual) {
			super(actual, LoadResultAssert.class);
		}

		/**
		 * Throughput lies within {@code tolerance} (1 % to 100 %, e.g.
		 * {@code withPercentage(15)} for ±15 %) of what the ceiling allows this many
		 * users: min(users, limit) / latency.
		 */
		public LoadResultAssert hasThroughputNear(Ceiling ceiling, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 100);
			double expected = ceiling.throughputFor(this.actual);
			double measured = this.actual.throughput();
			if (Math.abs(measured - expected) > share * expected) {
				failRoot("measured %s; expected %s ±%d %% — %s%n  run: %s", rps(measured), rps(expected),
						Math.round(share * 100), limitStory(ceiling), this.actual.summary());
			}
			return this;
		}

		/**
		 * Median latency lies within {@code tolerance} (1 % to 1000 %) of
		 * {@code expected}.
		 */
		public LoadResultAssert hasMedianLatencyNear(Duration expected, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 1000);
			Duration median = this.actual.median();
			double off = Math.abs(median.toNanos() - expected.toNanos()) / (double) expected.toNanos();
			if (off > share) {
				failRoot("median latency %s; expected %s ±%d %%%n  run: %s", Knobs.human(median), Knobs.human(expected),
						Math.round(share * 100), this.actual.summary());
			}
			return this;
		}

		/**
		 * Mean latency lies within {@code tolerance} (1 % to 1000 %) of {@code expected}.
		 * Little's law is a statement about the mean: W = L / λ holds for it whatever
		 * order the queue serves in, the median only for a fair one.
		 */
		public LoadResultAssert hasMeanLatencyNear(Duration expected, Percentage tolerance) {
			isNotNull();
			hasSomeSuccesses();
			double share = share(tolerance, 1000);
			Duration mean = this.actual.meanLatency();
			double off = Math.abs(mean.toNanos() - expected.toNanos()) / (double) expected.toNanos();
			if (off > share) {
				failRoot("mean latency %s; expected %s ±%d %%%n  run: %s", Knobs.human(mean), Knobs.human(expected),
						Math.round(share * 100), this.actual.summary());
			}
			return this;
		}

		/**
		 * Mean latency is at least {@code factor} (1 to 1000) times {@code serviceTime}:
		 * requests queued.
		 */
		public LoadResultAssert hasMeanLatencyAtLeast(double factor, Duration serviceTime) {
			isNotNull();
			hasSomeSuccesses();
			Knobs.between("factor", factor, 1.0, 1000.0);
			Duration mean = this.actual.meanLatency();
			if (mean.toNanos() < factor * serviceTime.toNanos()) {
				failRoot(
						"mean latency %s is below %.1f × %s: requests did not queue for the capped resource%n  run: %s",
						Knobs.human(mean), factor, Knobs.human(serviceTime), this.actual.summary());
			}
			return this;
		}

		/**
		 * Median latency is at least {@code factor} (1 to 1000) times
		 * {@code serviceTime}: requests queued.
		 */
		public LoadResultAssert hasMedianLatencyAtLeast(double factor, Duration serviceTime) {
			isNotNull();
			hasSomeSuccesses();
			Knobs.between("factor", factor, 1.0, 1000.0);
			Duration median = this.actual.median();
			if (median.toNanos() < factor * serviceTime.toNanos()) {
				failRoot(
						"median latency %s is below %.1f × %s: requests did not queue for the capped resource%n  run: %s",
						Knobs.human(median), factor, Knobs.human(serviceTime), this.actual.summary());
			}
			return this;
		}

		/**
		 * Throughput and latency say nothing when no request succeeded: the failure then
		 * names what the requests got ("every request failed: 412 × http-404"), not a
		 * throughput of 0.0.
		 */
		private void hasSomeSuccesses() {
			generatorWasNotTheCap();
			if (this.actual.succeeded() > 0) {
				return;
			}
			if (this.actual.errorCount() > 0) {
				failRoot("every request failed: %s — check the route and the service's log%n  run: %s",
						byKind(this.actual.errors()), this.actual.summary());
			}
			failRoot(
					"no request completed inside the %s window: the service took longer than the window to answer%n  run: %s",
					Knobs.human(this.actual.window()), this.actual.summary());
		}

		/**
		 * The load generator's self-check: figures of a run whose generator could not
		 * send faster (its busiest thread on the CPU 90 % of the run or more) measure the
		 * generator, so no throughput or latency assertion passes on them.
		 */
		private void generatorWasNotTheCap() {
			if (this.actual.generatorSaturated()) {
				failRoot("the load generator, not the service, was the cap: its busiest thread was on the CPU %d %% of"
						+ " the run, so it could not send faster; give the test JVM more CPU or the load fewer users%n  run: %s",
						Math.round(this.actual.generatorBusy() * 100), this.actual.summary());
			}
		}

		/** No request failed inside the measurement window. */
		public LoadResultAssert hasNoErrors() {
			isNotNull();
			hasSomeSuccesses();
			if (this.actual.errorCount() > 0) {
				failRoot("expected no errors but %d requests failed: %s%n  run: %s", this.actual.errorCount(),
						byKind(this.actual.errors()), this.actual.summary());
			}
			return this;
		}

		private String limitStory(Ceiling ceiling) {
			if (this.actual.offeredRps().isPresent()) {
				return String.format(Locale.ROOT, "%s offered against %s (λ = L / W)",
						rps(this.actual.offeredRps().getAsDouble()), ceiling.explain());
			}
			int users = this.actual.users();
			if (ceiling.saturatedBy(users)) {
				return String.format(Locale.ROOT, "%d users share %s, so %s is the cap (λ = L / W)", users,
						ceiling.resource(), ceiling.explain());
			}
			return String.format(Locale.ROOT, "%d users fit in %d %s, so throughput should be users / latency = %s",
					users, ceiling.limit(), ceiling.resource(), rps(ceiling.throughputFor(users)));
		}

		private static String rps(double rps) {
			return String.format(Locale.ROOT, "%.1f rps", rps);
		}

	}

	/**
	 * AssertJ assertions on a {@link PinningReport}; failures print the culprits and the
	 * longest pinned stack.
	 */
	public static class PinningReportAssert extends AbstractAssert<PinningReportAssert, PinningReport> {

		/**
		 * Fails with {@code format} filled in {@code Locale.ROOT}: a verdict reads the
		 * same on a German laptop ("10.0 rps", never "10,0 rps").
		 */
		private void failRoot(String format, Object... arguments) {
			failWithMessage("%s", String.format(java.util.Locale.ROOT, format, arguments));
		}

		private static final int FRAMES_SHOWN = 15;

		public PinningReportAssert(PinningReport actual) {
			super(actual, PinningReportAssert.class);
		}

		/** No virtual thread was pinned past the recording threshold. */
		public PinningReportAssert hasNoPinnedThreads() {
			isNotNull();
			if (this.actual.count() > 0) {
				failRoot("expected no pinned virtual threads, but found %s", this.actual.describe(FRAMES_SHOWN));
			}
			return this;
		}

		/**
		 * No pinned event was caused by code starting with {@code prefix}: no event's
		 * {@linkplain dev.bottleneckkit.probe.PinnedEvent#culprit() culprit} (the first
		 * frame outside the JDK, the code that blocked while pinned) lies there. Use it
		 * where the claim is about one library's locks and the JDK still pins elsewhere,
		 * e.g. JDK 24+ while a virtual thread waits for another thread to load a class.
		 */
		public PinningReportAssert hasNoPinsCausedBy(String prefix) {
			isNotNull();
			long there = this.actual.events().stream().filter((event) -> event.culprit().startsWith(prefix)).count();
			if (there > 0) {
				failRoot("expected no pinned virtual thread blocked in %s, but %d of %d were: %s", prefix, there,
						this.actual.count(), this.actual.describe(FRAMES_SHOWN));
			}
			return this;
		}

		/** At least {@code events} (1 to 10^9) pinned events were recorded. */
		public PinningReportAssert hasPinnedAtLeast(int events) {
			isNotNull();
			Knobs.between("events", events, 1, 1_000_000_000);
			if (this.actual.count() < events) {
				failRoot("expected at least %d pinned events, but found %s", events,
						this.actual.describe(FRAMES_SHOWN));
			}
			return this;
		}

		/**
		 * Every pinned event's stack holds a frame starting with {@code prefix}, e.g.
		 * {@code "com.mysql.cj."}.
		 */
		public PinningReportAssert hasEveryPinInCode(String prefix) {
			isNotNull();
			long elsewhere = this.actual.events()
				.stream()
				.filter((event) -> event.frames().stream().noneMatch((frame) -> frame.startsWith(prefix)))
				.count();
			if (this.actual.count() == 0 || elsewhere > 0) {
				failRoot("expected every pinned stack to hold a frame of %s, but %d of %d do not: %s", prefix,
						elsewhere, this.actual.count(), this.actual.describe(FRAMES_SHOWN));
			}
			return this;
		}

	}

	/**
	 * Failures by kind, the most frequent first, as every message prints them: "412 ×
	 * http-404, 3 × read-timeout".
	 */
	static String byKind(Map<String, Long> errors) {
		return errors.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.map((kind) -> kind.getValue() + " × " + kind.getKey())
			.collect(Collectors.joining(", "));
	}

	/**
	 * A tolerance as a share (15 % → 0.15), between 1 % and {@code most} %: AssertJ's
	 * {@code Percentage} already refuses a negative one.
	 */
	private static double share(Percentage tolerance, double most) {
		if (tolerance.value < 1) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"a tolerance of %s %% is below the noise of any run: withPercentage(15) is ±15 %%",
					tolerance.value));
		}
		Knobs.between("tolerance (%)", tolerance.value, 1, most);
		return tolerance.value / 100;
	}

}
