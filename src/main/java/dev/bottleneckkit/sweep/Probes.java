package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.internal.Budget;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.MachineCpu;
import dev.bottleneckkit.probe.OutboundConnections;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import org.testcontainers.containers.GenericContainer;

/**
 * The probes of one sweep, on the service it loads: each that cannot see says so in one
 * line ({@link #blind()}), once, and the sweep goes on without it.
 */
final class Probes implements AutoCloseable {

	private final AbstractServiceContainer<?> service;

	private final GenericContainer<?> downstream;

	private final Set<String> blind = new LinkedHashSet<>();

	private ServiceGauges serviceGauges;

	/** Where the service's meters were last read; null until a step has read them. */
	private String meters;

	private ServiceGauges downstreamGauges;

	private ThreadDumpProbe threads;

	private PinningProbe pinning;

	private OptionalInt carriers = OptionalInt.empty();

	private OutboundConnections connections;

	private MachineCpu cpu;

	private MachineCpu.Reading cpuBefore;

	/** The step's CPU read all along, for its window's. */
	private CpuSamples cpuSamples;

	private CarrierTime carriersBefore;

	Probes(AbstractServiceContainer<?> service, GenericContainer<?> downstream) {
		this.service = service;
		this.downstream = downstream;
		if (service != null) {
			try (Budget.Span reading = Budget.span(Budget.Category.PROBES)) {
				open();
			}
		}
	}

	private void open() {
		AbstractServiceContainer<?> service = this.service;
		GenericContainer<?> downstream = this.downstream;
		Optional<JmxAgent> jmx = JmxAgent.of(service);
		if (jmx.isEmpty()) {
			this.blind.add("thread dumps, pinned threads and carriers: the service's JMX agent is off"
					+ " (withoutJmx()); leave it on to see locks, thread pools and pinning");
		}
		else {
			this.threads = ThreadDumpProbe.on(service);
			try {
				this.pinning = PinningProbe.on(service).withThreshold(Duration.ZERO).start();
				this.carriers = this.pinning.carriers();
			}
			catch (RuntimeException ex) {
				this.pinning = null;
				this.blind.add("pinned threads and carriers: JMX at " + jmx.get() + " refused the recording ("
						+ rootMessage(ex) + "); a JVM with jdk.management.jfr is needed");
			}
		}
		try {
			this.cpu = MachineCpu.around(service, Optional.ofNullable(downstream));
		}
		catch (RuntimeException ex) {
			this.blind.add("CPU: not read (" + rootMessage(ex) + ")");
		}
		try {
			this.connections = OutboundConnections.of(service).start();
		}
		catch (RuntimeException ex) {
			this.blind.add("outbound connections: the socket reader did not start (" + rootMessage(ex)
					+ "); pools without meters cannot be seen");
		}
	}

	List<String> blind() {
		return List.copyOf(this.blind);
	}

	/** Where the service's meters were read, once a step has read them. */
	Optional<String> meters() {
		return Optional.ofNullable(this.meters);
	}

	/** Starts the readings of a step: its gauges, its pins, its CPU. */
	void beginStep() {
		try (Budget.Span reading = Budget.span(Budget.Category.PROBES)) {
			beginReadings();
		}
	}

	private void beginReadings() {
		if (this.service != null) {
			this.serviceGauges = ServiceGauges.on(this.service).start();
		}
		if (this.downstream instanceof DownstreamContainer standIn) {
			standIn.resetInFlight();
		}
		else if (this.downstream instanceof AbstractServiceContainer<?> service) {
			this.downstreamGauges = ServiceGauges.on(service).start();
		}
		else if (this.downstream != null) {
			this.downstreamGauges = ServiceGauges.at(uriOf(this.downstream)).start();
		}
		if (this.pinning != null) {
			try {
				this.pinning.drain();
			}
			catch (RuntimeException ex) {
				this.blind.add("pinned threads: the recording could not be read (" + rootMessage(ex) + ")");
				this.pinning = null;
			}
		}
		this.cpuBefore = read(this.cpu);
		this.cpuSamples = (this.cpuBefore != null) ? CpuSamples.of(this.cpu) : null;
		this.carriersBefore = carrierTime();
	}

	/**
	 * The carriers' time so far (on a core or waiting for one, else their CPU), with when
	 * it was read; null where not read.
	 */
	private CarrierTime carrierTime() {
		if (this.pinning == null) {
			return null;
		}
		return this.pinning.carrierTimeNanos().map((nanos) -> new CarrierTime(System.nanoTime(), nanos)).orElse(null);
	}

	private record CarrierTime(long at, Map<Long, Long> nanos) {

		OptionalDouble coresSince(CarrierTime before) {
			return (before == null) ? OptionalDouble.empty() : OptionalDouble
				.of(PinningProbe.carrierCores(before.nanos(), this.nanos(), (this.at() - before.at()) / 1e9));
		}

	}

	Optional<ThreadDump> dump() {
		if (this.threads == null) {
			return Optional.empty();
		}
		try {
			return Optional.of(this.threads.take());
		}
		catch (RuntimeException ex) {
			this.blind.add("thread dumps: " + rootMessage(ex)
					+ "; locks, thread pools and pools without meters cannot be seen");
			this.threads = null;
			return Optional.empty();
		}
	}

	/**
	 * Ends the readings of a step, its thread dumps given: what every probe read over it.
	 */
	ProbeReadings endStep(long wallStart, long windowStart, long windowEnd, long wallEnd, List<ThreadDump> dumps) {
		try (Budget.Span reading = Budget.span(Budget.Category.PROBES)) {
			return readStep(wallStart, windowStart, windowEnd, wallEnd, dumps);
		}
	}

	private ProbeReadings readStep(long wallStart, long windowStart, long windowEnd, long wallEnd,
			List<ThreadDump> dumps) {
		Optional<MachineCpu.Use> inTheWindow = Optional.empty();
		if (this.cpuSamples != null) {
			this.cpuSamples.close();
			inTheWindow = this.cpuSamples.within(windowStart, windowEnd);
			this.cpuSamples = null;
		}
		// The whole step's reading lists the engine's containers and scans /proc: taken
		// only where the window's own could not be.
		MachineCpu.Reading cpuAfter = inTheWindow.isPresent() ? null : read(this.cpu);
		CarrierTime carriersAfter = carrierTime();
		GaugeTimeline service = (this.serviceGauges != null) ? this.serviceGauges.stop() : new GaugeTimeline(Map.of());
		if (this.serviceGauges != null) {
			this.serviceGauges.blind().ifPresent(this.blind::add);
			this.serviceGauges.source().ifPresent((source) -> this.meters = source);
		}
		GaugeTimeline downstream = (this.downstreamGauges != null) ? this.downstreamGauges.stop()
				: new GaugeTimeline(Map.of());
		List<PinnedEvent> pinned = List.of();
		if (this.pinning != null) {
			try {
				pinned = this.pinning.drain();
			}
			catch (RuntimeException ex) {
				this.blind.add("pinned threads: the recording could not be read (" + rootMessage(ex) + ")");
				this.pinning = null;
			}
		}
		Optional<MachineCpu.Use> cpu = inTheWindow.isPresent() ? inTheWindow
				: (this.cpuBefore != null && cpuAfter != null) ? Optional.of(this.cpu.between(this.cpuBefore, cpuAfter))
						: Optional.empty();
		List<OutboundConnections.Destination> seen = (this.connections != null)
				? this.connections.between(windowStart, wallEnd) : List.of();
		if (this.connections != null && this.connections.readings() == 0) {
			this.blind.add("outbound connections: the socket reader gave no reading; pools without meters cannot"
					+ " be seen");
		}
		Optional<DownstreamContainer.InFlight> standIn = (this.downstream instanceof DownstreamContainer stub)
				? Optional.of(stub.inFlight()) : Optional.empty();
		OptionalDouble carrierCores = (carriersAfter != null) ? carriersAfter.coresSince(this.carriersBefore)
				: OptionalDouble.empty();
		return new ProbeReadings(service, downstream, cpu, pinned, this.carriers, dumps, seen,
				Duration.ofNanos(wallEnd - wallStart), standIn, carrierCores, inTheWindow.isPresent());
	}

	private MachineCpu.Reading read(MachineCpu machine) {
		if (machine == null) {
			return null;
		}
		try {
			return machine.read();
		}
		catch (RuntimeException ex) {
			this.blind.add("CPU: not read (" + rootMessage(ex) + ")");
			this.cpu = null;
			return null;
		}
	}

	@Override
	public void close() {
		if (this.cpuSamples != null) {
			this.cpuSamples.close();
		}
		if (this.pinning != null) {
			this.pinning.close();
		}
		if (this.threads != null) {
			this.threads.close();
		}
		if (this.connections != null) {
			this.connections.close();
		}
	}

	private static URI uriOf(GenericContainer<?> container) {
		if (container instanceof AbstractServiceContainer<?> service) {
			return service.uri("");
		}
		int port = container.getExposedPorts().get(0);
		return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(port));
	}

	private static String rootMessage(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return String.valueOf(root.getMessage());
	}

}
