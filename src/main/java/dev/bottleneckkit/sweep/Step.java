package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;

/**
 * One step of a {@link Sweep}: a closed loop at one concurrency and everything the probes
 * saw meanwhile.
 *
 * @param users the concurrency of the step
 * @param result what the load measured
 * @param service the service's gauges during the step (empty without {@code watching})
 * @param downstream its downstream's gauges during the step (empty without
 * {@code watchingDownstream})
 * @param serviceCores cores the service's container used on average, from its cgroup; NaN
 * when not read
 * @param serviceCpuLimit cores the service's container may use (its {@code --cpus}, or
 * the host's cores)
 * @param downstreamCores cores the downstream's container used on average; NaN when not
 * read
 * @param downstreamCpuLimit cores the downstream's container may use
 * @param pinned virtual threads pinned during the step (empty without a pinning probe)
 * @param threads a thread dump of the service in the middle of the step (null without a
 * thread-dump probe)
 * @param wall how long the step took, warm-up included
 */
public record Step(int users, LoadResult result, GaugeTimeline service, GaugeTimeline downstream, double serviceCores,
		double serviceCpuLimit, double downstreamCores, double downstreamCpuLimit, List<PinnedEvent> pinned,
		ThreadDump threads, Duration wall) {

	/** Successful requests per second. */
	public double throughput() {
		return this.result.throughput();
	}

	/** Mean latency of the successful requests. */
	public Duration meanLatency() {
		return this.result.meanLatency();
	}

	/** Carrier time pinned during the step, summed. */
	public Duration pinnedTime() {
		return this.pinned.stream().map(PinnedEvent::duration).reduce(Duration.ZERO, Duration::plus);
	}

}
