package dev.bottleneckkit.sweep.internal.analysis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;

/**
 * What a request of a step demanded of the resources that divide by it, and the ceilings
 * that gives: a carrier's time (pinned, on a core or waiting for one), the CPU, the
 * stand-in downstream's hold. The CPU is read over the window the throughput is measured
 * in and divided by the window's requests, where readings inside it were taken; the pins
 * and the rest over the whole step (warm-up included), divided by the requests that ended
 * in it.
 */
public final class Demands {

	private Demands() {
	}

	/** "service 1.62, mysql 0.21, load generator 0.14, toxiproxy 0.05" */
	public static String split(Step.Cpu use) {
		Map<String, Double> parts = new LinkedHashMap<>();
		parts.put("service", use.service());
		use.downstream().ifPresent((cores) -> parts.put("downstream", cores));
		parts.putAll(use.neighbours());
		parts.put("load generator", use.generator());
		if (use.others() >= 0.01) {
			parts.put("other processes", use.others());
		}
		return parts.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
			.filter((part) -> part.getValue() >= 0.01)
			.map((part) -> String.format(Locale.ROOT, "%s %.2f", part.getKey(), part.getValue()))
			.collect(Collectors.joining(", "));
	}

	/**
	 * What a request of {@code step} held a carrier beside its pins: a carrier is taken
	 * while a virtual thread is mounted, blocked while pinned, or running on the CPU, or
	 * runnable and waiting for a core. What the carriers did is read from their threads
	 * (on a core or waiting, from the host's /proc; their CPU over JMX on a remote
	 * engine); where they were not read, the service's whole CPU (its compilers,
	 * collectors and Tomcat's poller too) stands in.
	 */
	public static Duration onCarriersPerRequest(Step step, int carriers) {
		OptionalDouble onCarriers = step.carrierCores().isPresent() ? step.carrierCores()
				: step.cpu().map((use) -> OptionalDouble.of(use.service())).orElse(OptionalDouble.empty());
		if (onCarriers.isEmpty()) {
			return Duration.ZERO;
		}
		double cores = Math.min(onCarriers.getAsDouble(), carriers);
		return step.carrierCores().isPresent() ? overTheStep(cores, step) : perRequest(cores, step);
	}

	/** {@code carriers} over a request's pins and its other time on a carrier. */
	public static Verdict.Model carriersModel(Step step, int carriers, Duration pinnedPerRequest) {
		return new Verdict.Model(carriers, "carriers", pinnedPerRequest.plus(onCarriersPerRequest(step, carriers)),
				"pinned or on the CPU per request");
	}

	/**
	 * A request's CPU from {@code cores} of the step's CPU reading: over the window, the
	 * cores over the window's requests a second (the utilization law, D = U / X, both
	 * figures from the same seconds); else over the whole step, as {@link #overTheStep}.
	 */
	public static Duration perRequest(double cores, Step step) {
		double perSecond = step.throughput() + step.result().errorsPerSecond();
		return (step.cpuOverTheWindow() && perSecond > 0) ? Duration.ofNanos(Math.round(cores / perSecond * 1e9))
				: overTheStep(cores, step);
	}

	/**
	 * A request's share of {@code cores} used on average over the whole step: the cores
	 * times the step's wall time over the requests that ended in it.
	 */
	static Duration overTheStep(double cores, Step step) {
		return Duration.ofNanos(Math.round(cores * step.wall().toNanos() / Math.max(1, requests(step))));
	}

	public static String cpuPerRequest(Duration perRequest, Step step) {
		return step.cpuOverTheWindow()
				? String.format(Locale.ROOT, "%.1f ms, at %.1f requests a second in the %d-user step's window",
						perRequest.toNanos() / 1e6, step.throughput() + step.result().errorsPerSecond(), step.users())
				: String.format(Locale.ROOT, "%.1f ms, %d requests in the %d-user step", perRequest.toNanos() / 1e6,
						requests(step), step.users());
	}

	/**
	 * Requests that ended in the step, warm-up included, as the CPU and the pins were
	 * read over it all; the window's when the step kept no timeline.
	 */
	public static long requests(Step step) {
		return step.result().timeline().isEmpty() ? step.result().completed()
				: step.result().timeline().stream().mapToLong((second) -> second.succeeded() + second.failed()).sum();
	}

}
