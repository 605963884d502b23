package dev.bottleneckkit.sweep.internal.run;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.sweep.internal.read.Carriers;

/**
 * A service's carrier threads over a step: how many it has (read once, as the probe
 * opens), and the cores they took on average.
 */
final class CarriersProbe implements StepProbe {

	private final Carriers carriers;

	private final OptionalInt count;

	/** The carriers' time as the step began, with when it was read. */
	private Optional<Time> before = Optional.empty();

	/** A probe on {@code carriers}, their count read now. */
	CarriersProbe(Carriers carriers) {
		this.carriers = carriers;
		this.count = carriers.readCount();
	}

	@Override
	public void begin(Plan plan) {
		this.before = time();
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		Optional<Time> after = time();
		OptionalDouble cores = (after.isPresent() && this.before.isPresent())
				? OptionalDouble.of(after.get().coresSince(this.before.get())) : OptionalDouble.empty();
		readings.carriers(this.count, cores);
	}

	private Optional<Time> time() {
		return this.carriers.readTimeNanos().map((nanos) -> new Time(System.nanoTime(), nanos));
	}

	@Override
	public void close() {
		this.carriers.close();
	}

	/** The carriers' time so far, each carrier's, read at {@code at}. */
	private record Time(long at, Map<Long, Long> nanos) {

		double coresSince(Time before) {
			return Carriers.cores(before.nanos(), this.nanos, (this.at - before.at()) / 1e9);
		}

	}

}
