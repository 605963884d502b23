package dev.bottleneckkit.sweep.internal.run;

import dev.bottleneckkit.sweep.internal.read.OutboundConnections;

/**
 * The service's established outbound connections over a step, by destination, read from
 * its network namespace: a pool without meters is seen by its connections.
 */
final class ConnectionsProbe implements StepProbe {

	private final OutboundConnections connections;

	/** A probe on {@code connections}, started. */
	ConnectionsProbe(OutboundConnections connections) {
		this.connections = connections;
	}

	@Override
	public void begin(Plan plan) {
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		readings.connections(this.connections.between(window.windowStart(), window.wallEnd()));
		if (this.connections.readings() == 0) {
			readings.blind("outbound connections: the socket reader gave no reading; pools without meters cannot"
					+ " be seen");
		}
	}

	@Override
	public void close() {
		this.connections.close();
	}

}
