package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.probe.OutboundConnections;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;

/**
 * What the {@link Probes} read over one step, beside its load: each field as {@link Step}
 * names it.
 */
record ProbeReadings(GaugeTimeline service, GaugeTimeline downstream, Optional<MachineCpu.Use> cpu,
		List<PinnedEvent> pinned, OptionalInt carriers, List<ThreadDump> threads,
		List<OutboundConnections.Destination> connections, Duration wall,
		Optional<DownstreamContainer.InFlight> standIn, OptionalDouble carrierCores, boolean cpuOverTheWindow) {

}
