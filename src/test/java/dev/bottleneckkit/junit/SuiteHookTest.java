package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A started container keeps its start's turn until its CPU over the last second is quiet,
 * on a clock the test keeps.
 */
class SuiteHookTest {

	/** A JVM that compiles its start-up at 1.5 cores for 3 s, then idles at 0.05. */
	@Test
	void aStartEndsWhenTheContainerWentQuiet() throws Exception {
		AtomicLong clock = new AtomicLong();
		OptionalDouble cores = SuiteHook.untilQuiet(
				() -> cpuAt(clock.get(), Duration.ofSeconds(3).toNanos(), 1.5, 0.05), clock::get, clock::addAndGet);

		assertThat(cores).isPresent();
		assertThat(cores.getAsDouble()).isLessThanOrEqualTo(SuiteHook.QUIET_CORES);
		assertThat(clock.get() / 1e9).as("quiet once a whole second after the busy 3 s has passed, read every 0.25 s")
			.isCloseTo(3.9, within(0.3));
	}

	@Test
	void aContainerThatNeverGoesQuietEndsItsStartAfterTheLongestWait() throws Exception {
		AtomicLong clock = new AtomicLong();
		OptionalDouble cores = SuiteHook.untilQuiet(() -> (long) (clock.get() * 0.9), clock::get, clock::addAndGet);

		assertThat(cores.getAsDouble()).isCloseTo(0.9, within(0.01));
		assertThat(clock.get()).isEqualTo(SuiteHook.QUIET_AT_MOST.toNanos());
	}

	@Test
	void aContainerWhoseCpuCannotBeReadIsNotWaitedFor() throws Exception {
		AtomicLong clock = new AtomicLong();

		assertThat(SuiteHook.untilQuiet(() -> -1, clock::get, clock::addAndGet)).isEmpty();
		assertThat(clock.get()).isZero();
	}

	private static long cpuAt(long nanos, long busyNanos, double busy, double idle) {
		return (long) ((nanos <= busyNanos) ? busy * nanos : busy * busyNanos + idle * (nanos - busyNanos));
	}

}
