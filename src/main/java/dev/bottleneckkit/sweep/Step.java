package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.internal.read.Carriers;

/**
 * One step of a {@link Sweep}: a closed loop at one concurrency and everything the probes
 * saw meanwhile.
 *
 * @param users the concurrency of the step
 * @param result what the load measured
 * @param service the service's gauges during the step (empty when it has none)
 * @param downstream its downstream's gauges during the step (empty without one)
 * @param cpu the CPU the service, its neighbours and the load generator used, when it was
 * read: over the step's window when {@code cpuOverTheWindow}, else over the whole step
 * @param pinned virtual threads pinned during the step (empty without a pinning probe)
 * @param carriers the service's carrier threads (its virtual-thread scheduler's
 * parallelism), when read
 * @param threads thread dumps of the service taken during the step, oldest first
 * @param connections the service's outbound TCP connections during the step, by
 * destination (empty when not read)
 * @param wall how long the step took, warm-up included
 * @param standIn what reached the watched downstream when it is a kit stand-in
 * ({@code DownstreamContainer}): in flight at most, its threads, its hold
 * @param carrierCores the cores the service's carrier threads took on average over the
 * step, when read: on a core or runnable and waiting for one where the host's
 * {@code /proc} shows their threads ({@code Carriers#readTimeNanos()}), else their CPU
 * @param cpuOverTheWindow whether {@code cpu} was read between readings inside the window
 * the throughput is measured in, so that a request's CPU is the window's CPU over the
 * window's requests
 * @param compilerCores the share of a core the service's JIT compilers took over the
 * step's window, when read (over its JMX agent): above {@value #WARMING} the step
 * measured a JVM still warming up ({@link #warming()})
 */
public record Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream,
		Optional<Step.Cpu> cpu, List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
		List<Step.Destination> connections, Duration wall, Optional<DownstreamContainer.InFlight> standIn,
		OptionalDouble carrierCores, boolean cpuOverTheWindow, OptionalDouble compilerCores) {

	/**
	 * The share of a core a step's JIT compilers may take for the step to count as warm:
	 * a fifth of a core compiling is code still changing under the step's figures (a warm
	 * JVM's compilers take a few hundredths).
	 */
	public static final double WARMING = 0.2;

	/** A step whose compilers were not read. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream, Optional<Step.Cpu> cpu,
			List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<Step.Destination> connections, Duration wall, Optional<DownstreamContainer.InFlight> standIn,
			OptionalDouble carrierCores, boolean cpuOverTheWindow) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, standIn,
				carrierCores, cpuOverTheWindow, OptionalDouble.empty());
	}

	/** A step whose CPU was read over the whole step. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream, Optional<Step.Cpu> cpu,
			List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<Step.Destination> connections, Duration wall, Optional<DownstreamContainer.InFlight> standIn,
			OptionalDouble carrierCores) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, standIn,
				carrierCores, false);
	}

	/** A step whose carriers' CPU was not read. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream, Optional<Step.Cpu> cpu,
			List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<Step.Destination> connections, Duration wall, Optional<DownstreamContainer.InFlight> standIn) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, standIn,
				OptionalDouble.empty());
	}

	/** A step without a stand-in downstream. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream, Optional<Step.Cpu> cpu,
			List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<Step.Destination> connections, Duration wall) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, Optional.empty());
	}

	public Step {
		pinned = List.copyOf(pinned);
		threads = List.copyOf(threads);
		connections = List.copyOf(connections);
	}

	/**
	 * Whether the service's compilers took more than {@value #WARMING} of a core over the
	 * step: its figures are a JVM's still warming up, not the service's own.
	 */
	public boolean warming() {
		return this.compilerCores.isPresent() && this.compilerCores.getAsDouble() > WARMING;
	}

	/** Successful requests per second. */
	public double throughput() {
		return this.result.throughput();
	}

	/**
	 * Mean latency of the requests, those still in flight at the window's end counted.
	 */
	public Duration meanLatency() {
		return this.result.meanLatency();
	}

	/**
	 * The pinned events that hold a carrier on a request's path: all but those a class's
	 * initialization cost once ({@link PinnedEvent#oneTime()}).
	 */
	public List<PinnedEvent> heldPins() {
		return this.pinned.stream().filter((event) -> !event.oneTime()).toList();
	}

	/**
	 * Carrier time pinned on the requests' path during the step, summed
	 * ({@link #heldPins()}).
	 */
	public Duration pinnedTime() {
		return heldPins().stream().map(PinnedEvent::duration).reduce(Duration.ZERO, Duration::plus);
	}

	/** The step's last thread dump, when one was taken. */
	public Optional<ThreadDump> lastDump() {
		return this.threads.isEmpty() ? Optional.empty() : Optional.of(this.threads.get(this.threads.size() - 1));
	}

	/**
	 * Where a stretch of time's CPU went, in cores on average.
	 *
	 * @param service the service's container
	 * @param serviceLimit the cores it may use: its {@code --cpus}, or the machine's
	 * @param serviceLimited whether it has a CPU limit of its own
	 * @param downstream the watched downstream's container, when one is watched
	 * @param downstreamLimit the cores the downstream may use (0 without one)
	 * @param neighbours each other container of the test, by name ({@code mysql})
	 * @param generator the test's JVM: the load generator and the probes
	 * @param machineCores the machine's cores
	 * @param machineUsed cores busy on the machine (with a local engine every process
	 * counted, else the sum of the parts)
	 */
	public record Cpu(double service, double serviceLimit, boolean serviceLimited, Optional<Double> downstream,
			double downstreamLimit, Map<String, Double> neighbours, double generator, double machineCores,
			double machineUsed) {

		public Cpu {
			neighbours = Collections.unmodifiableMap(new LinkedHashMap<>(neighbours));
		}

		/** The machine's share in use, 0 to 1. */
		public double machineBusy() {
			return this.machineUsed / this.machineCores;
		}

		/**
		 * The cores the service's container could have had: its limit, or, where the
		 * machine was full, what it used and the cores the machine left idle. A neighbour
		 * at the same priority that takes a core of two leaves a container limited to one
		 * about nine tenths of it.
		 */
		public double serviceCores() {
			return Math.min(this.serviceLimit, this.service + Math.max(0, this.machineCores - this.machineUsed));
		}

		/** Cores used by what the split does not name: other processes on the machine. */
		public double others() {
			double named = this.service + this.downstream.orElse(0.0) + this.generator
					+ this.neighbours.values().stream().mapToDouble(Double::doubleValue).sum();
			return Math.max(0, this.machineUsed - named);
		}

	}

	/**
	 * The service's established connections to one destination over a stretch of time.
	 *
	 * @param name the destination as the test's containers name it, {@code quotes:8080},
	 * or its address
	 * @param address its {@code ip:port}
	 * @param min the fewest connections in one reading
	 * @param max the most connections in one reading
	 * @param readings how many readings the figures come from
	 * @param inUse the connections that carried a request during the step: their bytes
	 * moved between its first and last reading (an idle keep-alive connection's, another
	 * client's, did not), where the reader could ask the kernel for them
	 */
	public record Destination(String name, String address, int min, int max, int readings, OptionalInt inUse) {

		/** A destination whose connections' bytes were not read. */
		public Destination(String name, String address, int min, int max, int readings) {
			this(name, address, min, max, readings, OptionalInt.empty());
		}

		/**
		 * The connections that count as the destination's: those in use where known, else
		 * the most established in one reading.
		 */
		public int counted() {
			return this.inUse.orElse(this.max);
		}

		@Override
		public String toString() {
			String established = (this.min == this.max) ? this.name + " " + this.max
					: this.name + " " + this.min + "–" + this.max;
			return this.inUse.isPresent() ? established + " (" + this.inUse.getAsInt() + " in use)" : established;
		}

	}

}
