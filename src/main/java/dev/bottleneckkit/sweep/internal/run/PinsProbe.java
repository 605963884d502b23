package dev.bottleneckkit.sweep.internal.run;

import java.util.List;

import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport;

/**
 * The virtual threads pinned over a step: the recording's events that ended between the
 * step's begin and its end, each with its stack and, on JDK 24+, its reason.
 */
final class PinsProbe implements StepProbe {

	private final PinningProbe recording;

	/** A probe on {@code recording}, started. */
	PinsProbe(PinningProbe recording) {
		this.recording = recording;
	}

	@Override
	public void begin(Plan plan) {
		drained();
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		readings.pinned(drained());
	}

	private java.util.List<dev.bottleneckkit.probe.PinningReport.PinnedEvent> drained() {
		try {
			return this.recording.drain();
		}
		catch (RuntimeException ex) {
			throw Blind.because("pinned threads: the recording could not be read (%s)", ex);
		}
	}

	@Override
	public void close() {
		this.recording.close();
	}

}
