package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.sweep.internal.analysis.Analysis;
import dev.bottleneckkit.sweep.internal.run.Readings;

/**
 * What a {@link Sweep} found: its steps at rising concurrency, the knee where doubling
 * the users stopped raising throughput, the ceiling the service stopped at, the
 * {@link Verdict} that names the resource, and, when asked for, the verdict put to the
 * test and the search for a limit. Complete when made: nothing in it runs load or
 * changes.
 */
public final class SweepResult {

	private final String name;

	private final URI target;

	private final Readings readings;

	private final Analysis analysis;

	private final Optional<Confirmation> confirmation;

	private final Optional<Search> search;

	private final Optional<ABComparison> comparison;

	SweepResult(String name, URI target, Readings readings, Analysis analysis, Optional<Confirmation> confirmation,
			Optional<Search> search, Optional<ABComparison> comparison) {
		this.name = name;
		this.target = target;
		this.readings = readings;
		this.analysis = analysis;
		this.confirmation = confirmation;
		this.search = search;
		this.comparison = comparison;
	}

	/**
	 * The service against its base image, measured side by side, when the sweep was an
	 * A/B sweep ({@link Sweep#against(String)}, or {@code -Dbottleneck.against}).
	 */
	public Optional<ABComparison> comparison() {
		return this.comparison;
	}

	/**
	 * How warm the service was, in words: the warm-up's seconds and how it ended, and the
	 * share of a core its compilers took at the knee.
	 */
	public String warmth() {
		return this.readings.warmth();
	}

	/** What the sweep's run measured. */
	Readings readings() {
		return this.readings;
	}

	/** What the analysis concluded from it. */
	Analysis analysis() {
		return this.analysis;
	}

	/**
	 * The smallest limit of the capped resource found to reach a throughput, when the
	 * sweep was asked to search for one ({@link Sweep#reaching(double)}) and its verdict
	 * named a resource.
	 */
	public Optional<Search> search() {
		return this.search;
	}

	/**
	 * The verdict put to the test, when the sweep was asked to
	 * ({@link Sweep#confirming()}) and the verdict named a resource with a knob.
	 */
	public Optional<Confirmation> confirmation() {
		return this.confirmation;
	}

	/**
	 * Each resource's own ceiling as the steps read it, lowest first, the one that caps
	 * included: what raising the cap would leave.
	 */
	public List<Verdict.Bound> bounds() {
		return this.analysis.bounds();
	}

	/**
	 * What caps next: the lowest resource's ceiling other than the verdict's, when the
	 * verdict names one and the steps read another. Once the verdict was put to the test,
	 * as the confirmation's best step read it, the knob turned.
	 */
	public Optional<Verdict.Bound> nextCap() {
		return this.confirmation.isPresent() ? this.confirmation.get().nextCap() : this.analysis.nextCap();
	}

	/**
	 * The Universal Scalability Law fitted to the steps: the curve, its capacity and the
	 * users at its peak; empty with fewer than three steps.
	 */
	public Optional<Scalability> scalability() {
		return this.analysis.scalability();
	}

	/** How the service was warmed up before the first step, when it was. */
	public Optional<WarmUp> warmUp() {
		return this.readings.warmUp();
	}

	/**
	 * What the probes could not see, each in one line naming what to change; empty when
	 * every probe saw.
	 */
	public List<String> blind() {
		return this.readings.blind();
	}

	/**
	 * Where the service's meters were read: {@code Actuator's metrics MBean over JMX},
	 * {@code /actuator/metrics}, or Prometheus text ({@code /actuator/prometheus},
	 * {@code /q/metrics}, ...); empty when none answered ({@link #blind} says why).
	 */
	public Optional<String> meters() {
		return this.readings.meters();
	}

	/** What was swept, for reports. */
	public String name() {
		return this.name;
	}

	/** The route the load was sent to. */
	public URI target() {
		return this.target;
	}

	/** The steps, one user first, doubling. */
	public List<Step> steps() {
		return this.readings.steps();
	}

	/** Whether throughput stopped rising within the sweep. */
	public boolean saturated() {
		return this.readings.saturated();
	}

	/** The resource that caps the service, and the numbers that say so. */
	public Verdict verdict() {
		return this.analysis.verdict();
	}

	/**
	 * How long the sweep ran, its confirmation's and search's starts and steps included.
	 */
	public Duration took() {
		return this.readings.took()
			.plus(this.comparison.map(ABComparison::took).orElse(Duration.ZERO))
			.plus(this.confirmation.map(Confirmation::took).orElse(Duration.ZERO))
			.plus(this.search.map(Search::took).orElse(Duration.ZERO));
	}

	/** W₁: the route's mean latency with one user, as the first step measured it. */
	public Duration oneUserLatency() {
		return this.readings.oneUserLatency();
	}

	/**
	 * The highest throughput of any step, requests per second: the ceiling when the sweep
	 * saturated.
	 */
	public double ceiling() {
		return this.readings.ceiling();
	}

	/**
	 * The first step at 90 % of the ceiling or more, when the sweep saturated: the knee.
	 */
	public Optional<Step> knee() {
		return this.readings.knee();
	}

	/**
	 * Little's law at the knee: how many requests the service behaves as if it served at
	 * once, ceiling × W₁ (a pool of 5 behind a 500 ms route: 10 rps × 0.5 s = 5).
	 */
	public double concurrencyAtCeiling() {
		return ceiling() * oneUserLatency().toNanos() / 1e9;
	}

	/** The steps as a table for logs and failure messages. */
	public String table() {
		StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "  %6s %10s %9s %9s %8s %8s %8s%n", "users",
				"rps", "p50 ms", "mean ms", "errors", "service", "machine"));
		Optional<Step> knee = knee();
		for (Step step : steps()) {
			table.append(String.format(Locale.ROOT, "  %6d %10.1f %9d %9d %8d %8s %8s%s%n", step.users(),
					step.throughput(), step.result().median().toMillis(), step.meanLatency().toMillis(),
					step.result().errorCount(),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.service())).orElse("-"),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.machineUsed())).orElse("-"),
					(knee.isPresent() && knee.get() == step) ? "  <- knee" : ""));
		}
		return table.toString();
	}

	@Override
	public String toString() {
		return this.name + ": " + verdict().line() + System.lineSeparator()
				+ this.comparison.map((c) -> "  " + c + System.lineSeparator()).orElse("")
				+ this.confirmation.map((c) -> "  " + c.line() + System.lineSeparator()).orElse("")
				+ nextCap().map((next) -> "  next: " + next + System.lineSeparator()).orElse("")
				+ scalability().map((fit) -> "  " + fit + System.lineSeparator()).orElse("")
				+ warmUp().map((w) -> "  " + w + System.lineSeparator()).orElse("") + table();
	}

}
