package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.analysis.Analysis;
import dev.bottleneckkit.sweep.internal.analysis.ConfirmationReading;
import dev.bottleneckkit.sweep.internal.kinds.KnobFamily;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;

/**
 * A sweep's service started again with knobs turned, for the confirmation and the search:
 * each turn stops the service, starts it from the test's own settings with the knob
 * turned, and measures the confirmation's steps there. Closing it puts the service back
 * as the test configured it, with one more start, before the sweep's {@code run()}
 * returns: nothing that uses the service afterwards meets a knob still turned.
 */
public final class KnobTurns implements AutoCloseable {

	private final SweepRun run;

	private final Readings readings;

	private final Analysis analysis;

	private final AbstractServiceContainer<?> service;

	/** The service as the test configured it: every start with a knob begins from it. */
	private final Settings configured;

	/** The knob last turned, while the service runs with it. */
	private Optional<String> turned = Optional.empty();

	public KnobTurns(SweepRun run, Readings readings, Analysis analysis) {
		this.run = run;
		this.readings = readings;
		this.analysis = analysis;
		this.service = run.service();
		this.configured = Settings.of(this.service);
	}

	/**
	 * Starts the service with {@code knob} turned and measures the knee's step and the
	 * next doubling there.
	 */
	public Confirmation confirm(Knob knob) {
		long started = System.nanoTime();
		Console.line(this.run.name() + ": starting the service again with " + knob.name());
		this.service.stop();
		// From the test's own settings: a search's second limit replaces its first.
		this.configured.restore(this.service);
		knob.turn().accept(this.service);
		this.turned = Optional.of(knob.name());
		try (RunHook.Span starting = RunHook.installed().begin(RunHook.Work.SWEEP_START, knob.name())) {
			this.service.start();
		}
		// The service came back on a new port: the requests go there.
		int knee = this.readings.knee().map(Step::users).orElse(this.readings.last().users());
		List<Step> steps = this.run.atTheServicesPort()
			.confirmationSteps(Confirmation.users(knee, knob.factor()), this.readings.steps().get(0), knob.name(),
					knob.factor());
		return ConfirmationReading.of(this.readings, this.analysis, knob.name(), knob.factor(), steps,
				Duration.ofNanos(System.nanoTime() - started));
	}

	/**
	 * The smallest limit of the resource {@code capped} names that reaches {@code target}
	 * rps, by the model first and by measurement after; no start is spent when
	 * {@code next}, what caps next, lies below it.
	 */
	public Search search(Verdict.Capped capped, double target, Optional<Verdict.Bound> next) {
		long started = System.nanoTime();
		Optional<Verdict.Bound> below = next.filter((bound) -> bound.model().rps() < target);
		if (below.isPresent()) {
			return Search.unreachable(target, "the next cap, " + below.get() + ", lies below it");
		}
		Optional<KnobFamily> family = ResourceKinds.knob(capped, this.service);
		if (family.isEmpty()) {
			return Search.unreachable(target,
					"the kit knows no knob of the " + capped.resource().description() + " to search");
		}
		double limit = capped.model().limit();
		double perUnit = this.readings.ceiling() / limit;
		double value = Search.firstLimit(target, perUnit, family.get().step());
		List<Search.Try> tries = new ArrayList<>();
		while (tries.size() < Search.STARTS) {
			Knob knob = family.get().at(value, limit);
			Console.line(String.format(Locale.ROOT, "%s: searching for %.1f rps: %s (predicted %.1f rps)",
					this.run.name(), target, knob.name(), value * perUnit));
			Confirmation measured = confirm(knob);
			// The knob's factor does not go below 1: a smaller limit is predicted by the
			// ceiling a unit.
			Search.Try attempt = new Search.Try(knob.name(), value, Math.min(value * perUnit, measured.predicted()),
					measured.ceilingAfter());
			tries.add(attempt);
			if (attempt.reached(target)) {
				break;
			}
			value = Search.nextLimit(value, target, measured.ceilingAfter(), family.get().step());
		}
		return new Search(target, perUnit, family.get().step(), tries, Optional.empty(),
				Duration.ofNanos(System.nanoTime() - started));
	}

	/**
	 * Puts the service back as the test configured it, when a knob is still turned: a
	 * stop and a start.
	 */
	@Override
	public void close() {
		if (this.turned.isEmpty()) {
			return;
		}
		Console.line(this.run.name() + ": putting the service back as the test configured it (" + this.turned.get()
				+ " undone)");
		this.service.stop();
		this.configured.restore(this.service);
		this.turned = Optional.empty();
		try (RunHook.Span starting = RunHook.installed().begin(RunHook.Work.SWEEP_START, "as configured")) {
			this.service.start();
		}
	}

	/**
	 * A container's environment and create-command modifiers before a knob was turned, to
	 * put it back as it was.
	 */
	private record Settings(Map<String, String> env, Set<?> modifiers) {

		static Settings of(AbstractServiceContainer<?> service) {
			return new Settings(new LinkedHashMap<>(service.getEnvMap()),
					new LinkedHashSet<>(service.getCreateContainerCmdModifiers()));
		}

		/**
		 * Puts the environment back as it was (the container's own map: values with an
		 * {@code =} in them, a JDBC URL's query, survive as they are), and drops the
		 * create-command modifiers the knob added.
		 */
		void restore(AbstractServiceContainer<?> service) {
			service.getEnvMap().clear();
			service.getEnvMap().putAll(this.env);
			service.getCreateContainerCmdModifiers().retainAll(this.modifiers);
		}

	}

}
