package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a {@link Sweep} found: its steps at rising concurrency, the knee where doubling
 * the users stopped raising throughput, the ceiling the service stopped at, and the
 * {@link Verdict} that names the resource.
 */
public final class SweepResult {

	/** A step whose throughput reaches this share of the ceiling is at the knee. */
	static final double KNEE_SHARE = 0.9;

	private final String name;

	private final URI target;

	private final List<Step> steps;

	private final boolean saturated;

	private final Verdict verdict;

	private final Optional<WarmUp> warmUp;

	private final List<String> blind;

	private final Duration took;

	private Optional<Confirmation> confirmation = Optional.empty();

	/** A result whose {@code verdict} is null only while the verdict is being reached. */
	SweepResult(String name, URI target, List<Step> steps, boolean saturated, Verdict verdict, Optional<WarmUp> warmUp,
			List<String> blind, Duration took) {
		this.name = name;
		this.target = target;
		this.steps = List.copyOf(steps);
		this.saturated = saturated;
		this.verdict = verdict;
		this.warmUp = warmUp;
		this.blind = List.copyOf(blind);
		this.took = took;
	}

	/** The same result with the verdict put to the test. */
	SweepResult confirmedBy(Confirmation confirmation) {
		SweepResult confirmed = new SweepResult(this.name, this.target, this.steps, this.saturated, this.verdict,
				this.warmUp, this.blind, this.took.plus(confirmation.took()));
		confirmed.confirmation = Optional.of(confirmation);
		return confirmed;
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
		return Attribution.bounds(this);
	}

	/**
	 * What caps next: the lowest resource's ceiling other than the verdict's, when the
	 * verdict names one and the steps read another.
	 */
	public Optional<Verdict.Bound> nextCap() {
		Optional<Resource> cap = this.verdict.cap();
		// A ceiling below the one measured is no resource's: its model read the route
		// wrong.
		return bounds().stream()
			.filter((bound) -> cap.isPresent() && bound.resource() != cap.get())
			.filter((bound) -> bound.model().rps() >= ceiling())
			.findFirst();
	}

	/**
	 * The Universal Scalability Law fitted to the steps: the curve, its capacity and the
	 * users at its peak; empty with fewer than three steps.
	 */
	public Optional<Scalability> scalability() {
		return Scalability.fit(this.steps);
	}

	/** How the service was warmed up before the first step, when it was. */
	public Optional<WarmUp> warmUp() {
		return this.warmUp;
	}

	/**
	 * What the probes could not see, each in one line naming what to change; empty when
	 * every probe saw.
	 */
	public List<String> blind() {
		return this.blind;
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
		return this.steps;
	}

	/** Whether throughput stopped rising within the sweep. */
	public boolean saturated() {
		return this.saturated;
	}

	/** The resource that caps the service, and the numbers that say so. */
	public Verdict verdict() {
		return this.verdict;
	}

	/** How long the sweep ran. */
	public Duration took() {
		return this.took;
	}

	/** W₁: the route's mean latency with one user, as the first step measured it. */
	public Duration oneUserLatency() {
		return this.steps.get(0).meanLatency();
	}

	/**
	 * The highest throughput of any step, requests per second: the ceiling when the sweep
	 * saturated.
	 */
	public double ceiling() {
		return this.steps.stream().mapToDouble(Step::throughput).max().orElse(0);
	}

	/**
	 * The first step at {@value #KNEE_SHARE} of the ceiling or more, when the sweep
	 * saturated: the knee.
	 */
	public Optional<Step> knee() {
		if (!this.saturated) {
			return Optional.empty();
		}
		double ceiling = ceiling();
		return this.steps.stream().filter((step) -> step.throughput() >= KNEE_SHARE * ceiling).findFirst();
	}

	/**
	 * Little's law at the knee: how many requests the service behaves as if it served at
	 * once, ceiling × W₁ (a pool of 5 behind a 500 ms route: 10 rps × 0.5 s = 5).
	 */
	public double concurrencyAtCeiling() {
		return ceiling() * this.oneUserLatency().toNanos() / 1e9;
	}

	/** The steps as a table for logs and failure messages. */
	public String table() {
		StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "  %6s %10s %9s %9s %8s %8s %8s%n", "users",
				"rps", "p50 ms", "mean ms", "errors", "service", "machine"));
		Optional<Step> knee = knee();
		for (Step step : this.steps) {
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
		return this.name + ": " + this.verdict.line() + System.lineSeparator()
				+ this.confirmation.map((c) -> "  " + c.line() + System.lineSeparator()).orElse("")
				+ nextCap().map((next) -> "  next: " + next + System.lineSeparator()).orElse("")
				+ scalability().map((fit) -> "  " + fit + System.lineSeparator()).orElse("")
				+ this.warmUp.map((w) -> "  " + w + System.lineSeparator()).orElse("") + table();
	}

}
