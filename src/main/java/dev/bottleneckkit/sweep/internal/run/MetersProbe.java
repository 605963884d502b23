package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ServiceGauges;

/**
 * A service's meters sampled over a step, wherever it serves them (Actuator's JSON,
 * Prometheus text, JMX): the loaded service's, which also says where its meters were read
 * and what it could not read, or its downstream's.
 */
final class MetersProbe implements StepProbe {

	private final Supplier<ServiceGauges> gauges;

	private final boolean ofTheService;

	/** The step's sampling, from its begin to its end. */
	private Optional<ServiceGauges> sampling = Optional.empty();

	/** When the sampling started, {@link System#nanoTime()}. */
	private long started;

	private MetersProbe(Supplier<ServiceGauges> gauges, boolean ofTheService) {
		this.gauges = gauges;
		this.ofTheService = ofTheService;
	}

	/** The loaded service's meters. */
	static MetersProbe ofTheService(Supplier<ServiceGauges> gauges) {
		return new MetersProbe(gauges, true);
	}

	/** Its downstream's meters. */
	static MetersProbe ofTheDownstream(Supplier<ServiceGauges> gauges) {
		return new MetersProbe(gauges, false);
	}

	@Override
	public void begin(Plan plan) {
		// Its samples are timed from start(): whatever building the sampler takes (an
		// agent's connection) is not counted in the window's offsets.
		ServiceGauges gauges = this.gauges.get();
		this.started = System.nanoTime();
		this.sampling = Optional.of(gauges.start());
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		ServiceGauges sampled = this.sampling.orElseThrow();
		this.sampling = Optional.empty();
		GaugeTimeline timeline = sampled.stop()
			.inWindow(Duration.ofNanos(Math.max(0, window.windowStart() - this.started)),
					Duration.ofNanos(Math.max(0, window.windowEnd() - this.started)));
		if (this.ofTheService) {
			readings.service(timeline);
			sampled.blind().ifPresent(readings::blind);
			sampled.source().ifPresent(readings::meters);
		}
		else {
			readings.downstream(timeline);
		}
	}

	@Override
	public void close() {
		this.sampling.ifPresent(ServiceGauges::stop);
	}

}
