package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.probe.OutboundConnections;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;

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
 * {@code /proc} shows their threads
 * ({@link dev.bottleneckkit.probe.PinningProbe#carrierTimeNanos()}), else their CPU
 * @param cpuOverTheWindow whether {@code cpu} was read between readings inside the window
 * the throughput is measured in, so that a request's CPU is the window's CPU over the
 * window's requests
 */
public record Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream,
		Optional<MachineCpu.Use> cpu, List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
		List<OutboundConnections.Destination> connections, Duration wall,
		Optional<DownstreamContainer.InFlight> standIn, OptionalDouble carrierCores, boolean cpuOverTheWindow) {

	/** A step whose CPU was read over the whole step. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream,
			Optional<MachineCpu.Use> cpu, List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<OutboundConnections.Destination> connections, Duration wall,
			Optional<DownstreamContainer.InFlight> standIn, OptionalDouble carrierCores) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, standIn,
				carrierCores, false);
	}

	/** A step whose carriers' CPU was not read. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream,
			Optional<MachineCpu.Use> cpu, List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<OutboundConnections.Destination> connections, Duration wall,
			Optional<DownstreamContainer.InFlight> standIn) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, standIn,
				OptionalDouble.empty());
	}

	/** A step without a stand-in downstream. */
	public Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream,
			Optional<MachineCpu.Use> cpu, List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
			List<OutboundConnections.Destination> connections, Duration wall) {
		this(users, result, service, downstream, cpu, pinned, carriers, threads, connections, wall, Optional.empty());
	}

	public Step {
		pinned = List.copyOf(pinned);
		threads = List.copyOf(threads);
		connections = List.copyOf(connections);
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

	/** Carrier time pinned during the step, summed. */
	public Duration pinnedTime() {
		return this.pinned.stream().map(PinnedEvent::duration).reduce(Duration.ZERO, Duration::plus);
	}

	/** The step's last thread dump, when one was taken. */
	public Optional<ThreadDump> lastDump() {
		return this.threads.isEmpty() ? Optional.empty() : Optional.of(this.threads.get(this.threads.size() - 1));
	}

}
