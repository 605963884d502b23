package dev.bottleneckkit.sweep.internal.run;

import dev.bottleneckkit.containers.DownstreamContainer;

/**
 * What reached a kit stand-in downstream over a step: in flight at most, its threads, its
 * hold.
 */
final class StandInProbe implements StepProbe {

	private final DownstreamContainer standIn;

	StandInProbe(DownstreamContainer standIn) {
		this.standIn = standIn;
	}

	@Override
	public void begin(Plan plan) {
		this.standIn.resetInFlight();
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		readings.standIn(this.standIn.inFlight());
	}

}
