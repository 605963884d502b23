package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.Demands;
import dev.bottleneckkit.sweep.internal.read.Carriers;

/**
 * The virtual-thread scheduler's carriers held by pinned virtual threads: the carriers
 * over the pinned time of a request, read from JFR's pinned events ({@link #carriers});
 * turned by {@code jdk.virtualThreadScheduler.parallelism}.
 */
public final class CarrierThreadsKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CARRIER_THREADS;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(CarrierThreadsKind::carriers);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return carriersBound(step);
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional
			.of(new KnobFamily(1, (value) -> Knob.of("carriers " + Knobs.count(value), 1, (container) -> container
				.withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + Math.round(value)))));
	}

	/**
	 * Carriers held by pinned virtual threads: at the last step the pins held at least
	 * {@value AnalysisPolicy#PINNED_CARRIERS} of a carrier at once, the other virtual
	 * threads waiting for a carrier in the scheduler's queue. Its model is the
	 * utilization law read where the carriers had room, below the knee: the carriers C
	 * over what a request held one, pinned P and on the CPU beside its pins, pooled over
	 * those steps (their pinned time and carrier time over their requests), so the model
	 * predicts the ceiling rather than restating it. Past the knee a request's hold of a
	 * carrier grows with what queued for it (a collapse read there lowers the model with
	 * the ceiling it explains). Where no step below the knee saw a pin, the knee's own
	 * step, the fewest users that did.
	 */
	static Optional<Capped> carriers(AtCap at) {
		List<PinnedEvent> pinned = at.last().heldPins();
		if (pinned.isEmpty()) {
			return Optional.empty();
		}
		Duration total = at.last().pinnedTime();
		double heldAtOnce = total.toNanos() / (double) at.last().wall().toNanos();
		if (heldAtOnce < AnalysisPolicy.PINNED_CARRIERS || Demands.requests(at.last()) == 0) {
			return Optional.empty();
		}
		int carriers = at.last().carriers().orElse((int) Math.max(1, Math.round(heldAtOnce)));
		List<Step> below = belowTheKnee(at);
		long requests = below.stream().mapToLong(Demands::requests).sum();
		Duration pinnedPerRequest = below.stream()
			.map(Step::pinnedTime)
			.reduce(Duration.ZERO, Duration::plus)
			.dividedBy(Math.max(1, requests));
		Duration cpuPerRequest = Duration.ofNanos(Math.round(below.stream()
			.mapToDouble(
					(step) -> Demands.onCarriersPerRequest(step, carriers).toNanos() * (double) Demands.requests(step))
			.sum() / Math.max(1, requests)));
		Duration each = total.dividedBy(pinned.size());
		Map.Entry<String, Long> culprit = pinned.stream()
			.collect(Collectors.groupingBy(PinnedEvent::culprit, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElseThrow();
		String read = usersRange(below);
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("pinned events", pinned.size() + " in the " + at.last().users() + "-user step");
		readings.put("pinned each", String.format(Locale.ROOT, "%.1f ms on average", each.toNanos() / 1e6));
		readings.put("pinned per request", String.format(Locale.ROOT, "%.1f ms (%d requests at %s)",
				pinnedPerRequest.toNanos() / 1e6, requests, read));
		readings.put("on a carrier per request",
				String.format(Locale.ROOT, "%.1f ms pinned + %.1f ms on the CPU%s, at %s",
						pinnedPerRequest.toNanos() / 1e6, cpuPerRequest.toNanos() / 1e6,
						below.stream().allMatch((step) -> step.carrierCores().isPresent())
								? " (read from the carrier threads)" : "",
						read));
		readings.put("carriers held at once", String.format(Locale.ROOT, "%.2f of %d", heldAtOnce, carriers));
		readings.put("culprit", culprit.getKey() + " ×" + culprit.getValue());
		pinned.stream()
			.map(PinnedEvent::pinnedReason)
			.flatMap(Optional::stream)
			.findFirst()
			.ifPresent((reason) -> readings.put("pinned reason", reason));
		return Optional.of(at.capped(Resource.CARRIER_THREADS,
				String.format(Locale.ROOT, "%d pinned events of %.1f ms, %.2f of %d carriers held at once, culprit %s",
						pinned.size(), each.toNanos() / 1e6, heldAtOnce, carriers, culprit.getKey()),
				new Verdict.Model(carriers, "carriers", pinnedPerRequest.plus(cpuPerRequest),
						"pinned or on the CPU per request, at " + read),
				Optional.of(culprit.getKey()), readings));
	}

	/**
	 * The steps below the knee that saw a pin hold a carrier, where the carriers had
	 * room; else the knee's own step, the fewest users that did.
	 */
	private static List<Step> belowTheKnee(AtCap at) {
		List<Step> pinnedSteps = at.readings()
			.steps()
			.stream()
			.filter((step) -> !step.heldPins().isEmpty() && Demands.requests(step) > 0)
			.toList();
		List<Step> below = pinnedSteps.stream().filter((step) -> step.users() < at.kneeUsers()).toList();
		if (!below.isEmpty()) {
			return below;
		}
		return pinnedSteps.stream()
			.filter((step) -> step.users() >= at.kneeUsers())
			.min(Comparator.comparingInt(Step::users))
			.map(List::of)
			.orElse(List.of(at.last()));
	}

	/** "1–4 users", "2 users". */
	private static String usersRange(List<Step> steps) {
		int fewest = steps.stream().mapToInt(Step::users).min().orElse(0);
		int most = steps.stream().mapToInt(Step::users).max().orElse(0);
		return (fewest == most) ? AtCap.usersText(fewest) : fewest + "–" + most + " users";
	}

	/**
	 * Carriers over the pinned time of a request of {@code step}, where pins held them.
	 */
	private static Optional<Verdict.Bound> carriersBound(Step step) {
		long requests = Demands.requests(step);
		if (step.heldPins().isEmpty() || requests <= 0 || step.carriers().isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new Verdict.Bound(Resource.CARRIER_THREADS, step.carriers().getAsInt() + " carriers, pinned",
				new Verdict.Model(step.carriers().getAsInt(), "carriers", step.pinnedTime().dividedBy(requests),
						"pinned per request")));
	}

	/**
	 * The carriers' ceiling as {@code step}, a confirmation's, read it: its carriers over
	 * what a request held one, pinned or mounted beside its pins; empty without pins,
	 * carriers or requests.
	 */
	@Override
	public Optional<Raised> asRaised(Step step) {
		long requests = Demands.requests(step);
		if (step.heldPins().isEmpty() || requests == 0 || step.carriers().isEmpty()) {
			return Optional.empty();
		}
		int carriers = step.carriers().getAsInt();
		return Optional.of(new Raised(
				new Verdict.Bound(Resource.CARRIER_THREADS, carriers + " carriers",
						Demands.carriersModel(step, carriers, step.pinnedTime().dividedBy(requests))),
				"the carriers with the knob turned, as its step read them", false));
	}

}
