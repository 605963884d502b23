package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.Demands;

/**
 * The downstream the route calls, its own resource saturated ({@link #downstream}): the
 * stand-in's threads over its hold, read on a step.
 */
public final class DownstreamKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.DOWNSTREAM;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(DownstreamKind::downstream);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return downstreamBound(step);
	}

	static Optional<Capped> downstream(AtCap at) {
		Optional<DownstreamContainer.InFlight> standIn = at.last()
			.standIn()
			.filter(DownstreamContainer.InFlight::threadsFull);
		if (standIn.isPresent() && at.last().users() > standIn.get().peak()
				&& standIn.get().meanServiceTime().toNanos() > 0) {
			DownstreamContainer.InFlight held = standIn.get();
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream in flight max", held.peak() + " of " + held.threads().getAsInt() + " threads");
			readings.put("downstream completed", Long.toString(held.completed()));
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's %d threads all held a request",
							held.threads().getAsInt()),
					new Verdict.Model(held.threads().getAsInt(), "downstream threads", held.meanServiceTime(),
							"the downstream's hold"),
					Optional.of("downstream"), readings));
		}
		GaugeTimeline gauges = at.last().downstream();
		// Of the downstream's pools full by their own meters, the one whose model lies
		// nearest the ceiling.
		Optional<Capped> pool = ResourceKinds.ALL.stream()
			.flatMap((kind) -> kind.fullByItsMeters(gauges).stream())
			.map((full) -> at.capped(Resource.DOWNSTREAM, "the downstream's " + full.saw(),
					new Verdict.Model(full.pool().limit(), "downstream " + full.units(), at.w1(), "W₁"),
					Optional.of("downstream"), full.pool().readings()))
			.min(Comparator.comparingDouble(Capped::modelError));
		if (pool.isPresent()) {
			return pool;
		}
		Optional<Step> busy = at.atCap()
			.stream()
			.filter((s) -> s.cpu().flatMap(Step.Cpu::downstream).isPresent())
			.filter((s) -> s.cpu().get().downstream().get() >= AnalysisPolicy.CPU_SATURATED
					* s.cpu().get().downstreamLimit())
			.max(Comparator.comparingDouble(Step::throughput));
		if (busy.isPresent()) {
			Step.Cpu use = busy.get().cpu().get();
			double cores = use.downstream().get();
			Duration perRequest = Demands.perRequest(cores, busy.get());
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream cores used",
					String.format(Locale.ROOT, "%.2f of %s", cores, Knobs.count(use.downstreamLimit())));
			readings.put("downstream CPU per request", Demands.cpuPerRequest(perRequest, busy.get()));
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream used %.2f of its %s CPU", cores,
							Knobs.count(use.downstreamLimit())),
					new Verdict.Model(use.downstreamLimit(), "downstream cores", perRequest, "CPU per request"),
					Optional.of("downstream"), readings));
		}
		return Optional.empty();
	}

	/** The stand-in downstream's threads over its hold, where {@code step} read them. */
	private static Optional<Verdict.Bound> downstreamBound(Step step) {
		return step.standIn()
			.filter((held) -> held.threads().isPresent() && held.meanServiceTime().toNanos() > 0)
			.map((held) -> new Verdict.Bound(Resource.DOWNSTREAM,
					"the downstream's " + held.threads().getAsInt() + " threads",
					new Verdict.Model(held.threads().getAsInt(), "downstream threads", held.meanServiceTime(),
							"the downstream's hold")));
	}

}
