package dev.bottleneckkit.sweep.internal.run;

import java.util.Optional;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.read.CpuSamples;
import dev.bottleneckkit.sweep.internal.read.MachineCpu;

/**
 * Where the machine's CPU went over a step, by container: sampled every
 * {@link CpuSamples#EVERY} and read over the load's window where the samples reach it,
 * else over the whole step.
 */
final class CpuProbe implements StepProbe {

	private final MachineCpu cpu;

	/** The step's first reading, from its begin to its end. */
	private Optional<MachineCpu.Reading> before = Optional.empty();

	/** The step's samples, from its begin to its end. */
	private Optional<CpuSamples> samples = Optional.empty();

	CpuProbe(MachineCpu cpu) {
		this.cpu = cpu;
	}

	@Override
	public void begin(Plan plan) {
		this.before = Optional.of(read());
		this.samples = Optional.of(CpuSamples.of(this.cpu));
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		CpuSamples sampled = this.samples.orElseThrow();
		this.samples = Optional.empty();
		sampled.close();
		Optional<Step.Cpu> inTheWindow = sampled.within(window.windowStart(), window.windowEnd());
		if (inTheWindow.isPresent()) {
			readings.cpu(inTheWindow.get(), true);
		}
		else {
			// The whole step's reading lists the engine's containers and scans /proc:
			// taken only where the window's own could not be.
			readings.cpu(this.cpu.between(this.before.orElseThrow(), read()), false);
		}
	}

	private MachineCpu.Reading read() {
		try {
			return this.cpu.read();
		}
		catch (RuntimeException ex) {
			throw Blind.because("CPU: not read (%s)", ex);
		}
	}

	@Override
	public void close() {
		this.samples.ifPresent(CpuSamples::close);
	}

}
