package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Step;

/**
 * What the {@link Probes} read over one step, beside its load: each field as {@link Step}
 * names it; what a probe that is off would have read is empty.
 */
record ProbeReadings(GaugeTimeline service, GaugeTimeline downstream, Optional<Step.Cpu> cpu, boolean cpuOverTheWindow,
		List<PinnedEvent> pinned, OptionalInt carriers, OptionalDouble carrierCores, List<ThreadDump> threads,
		List<Step.Destination> connections, Optional<DownstreamContainer.InFlight> standIn,
		OptionalDouble compilerCores) {

	ProbeReadings {
		pinned = List.copyOf(pinned);
		threads = List.copyOf(threads);
		connections = List.copyOf(connections);
	}

	/**
	 * Where the probes put what they read as a step ends; {@link #readings()} makes the
	 * value. Also what they say of themselves: a line for what they could not see, where
	 * the service's meters were read.
	 */
	static final class Builder {

		private GaugeTimeline service = new GaugeTimeline(Map.of());

		private GaugeTimeline downstream = new GaugeTimeline(Map.of());

		private Optional<Step.Cpu> cpu = Optional.empty();

		private boolean cpuOverTheWindow;

		private List<PinnedEvent> pinned = List.of();

		private OptionalInt carriers = OptionalInt.empty();

		private OptionalDouble carrierCores = OptionalDouble.empty();

		private final List<ThreadDump> threads = new ArrayList<>();

		private List<Step.Destination> connections = List.of();

		private Optional<DownstreamContainer.InFlight> standIn = Optional.empty();

		private OptionalDouble compilerCores = OptionalDouble.empty();

		private final Set<String> blind = new LinkedHashSet<>();

		private Optional<String> meters = Optional.empty();

		private Map<String, List<GaugeTimeline.Sample>> database = Map.of();

		Builder service(GaugeTimeline timeline) {
			this.service = timeline;
			return this;
		}

		Builder downstream(GaugeTimeline timeline) {
			this.downstream = timeline;
			return this;
		}

		/** The CPU's split; {@code overTheWindow}: read inside the window. */
		Builder cpu(Step.Cpu use, boolean overTheWindow) {
			this.cpu = Optional.of(use);
			this.cpuOverTheWindow = overTheWindow;
			return this;
		}

		Builder pinned(List<PinnedEvent> events) {
			this.pinned = events;
			return this;
		}

		Builder carriers(OptionalInt count, OptionalDouble cores) {
			this.carriers = count;
			this.carrierCores = cores;
			return this;
		}

		Builder threads(List<ThreadDump> dumps) {
			this.threads.addAll(dumps);
			return this;
		}

		Builder connections(List<Step.Destination> destinations) {
			this.connections = destinations;
			return this;
		}

		Builder standIn(DownstreamContainer.InFlight inFlight) {
			this.standIn = Optional.of(inFlight);
			return this;
		}

		/** The share of a core the JIT compilers took. */
		Builder compiler(OptionalDouble cores) {
			this.compilerCores = cores;
			return this;
		}

		/**
		 * The database's series, each sample timed from the load's window opening: they
		 * join the service's meters.
		 */
		Builder database(Map<String, List<GaugeTimeline.Sample>> series) {
			this.database = series;
			return this;
		}

		/** A probe's line on what it could not see, naming what to change. */
		Builder blind(String line) {
			this.blind.add(line);
			return this;
		}

		/** Where the service's meters were read. */
		Builder meters(String source) {
			this.meters = Optional.of(source);
			return this;
		}

		Set<String> blind() {
			return this.blind;
		}

		Optional<String> meters() {
			return this.meters;
		}

		ProbeReadings readings() {
			return new ProbeReadings(withTheDatabase(), this.downstream, this.cpu, this.cpuOverTheWindow, this.pinned,
					this.carriers, this.carrierCores, this.threads, this.connections, this.standIn, this.compilerCores);
		}

		/** The service's meters and the database's series, timed as the meters are. */
		private GaugeTimeline withTheDatabase() {
			if (this.database.isEmpty()) {
				return this.service;
			}
			Map<String, List<GaugeTimeline.Sample>> series = new LinkedHashMap<>(this.service.series());
			Duration opens = this.service.windowOpens();
			this.database.forEach((name, samples) -> series.put(name,
					samples.stream()
						.map((sample) -> new GaugeTimeline.Sample(opens.plus(sample.at()), sample.value()))
						.toList()));
			return new GaugeTimeline(series, opens, this.service.windowCloses());
		}

	}

}
