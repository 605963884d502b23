package dev.bottleneckkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What the kit's measuring path tells a test harness as it goes: a container starting, a
 * load running and the windows it measured, a sweep warming up or reading its probes. A
 * harness may hold a container's start or a load back until its turn (scenario classes
 * side by side keep starts and loads apart) and count where a run's seconds went. Nothing
 * is installed by default: every call returns at once and nothing waits or is recorded,
 * so a user's load runs through no schedule and no budget.
 */
public interface RunHook {

	/** The hook that does nothing: what runs until a harness installs one. */
	RunHook NONE = new RunHook() {
	};

	/** What the measuring path is doing, for a span of {@link #begin}. */
	enum Work {

		/**
		 * One container starting: CPU-heavy (a JVM loading and compiling an application).
		 */
		CONTAINER_START,

		/**
		 * A sweep starting a service of its own: with a knob turned, or an A/B run's
		 * base.
		 */
		SWEEP_START,

		/** A sweep warming its service up: the loads inside are warm-up, not windows. */
		WARM_UP,

		/** Probes read or opened outside a load. */
		PROBE,

		/** An image pulled. */
		IMAGE,

		/** A container stopped. */
		CONTAINER_STOP

	}

	/**
	 * Begins {@code work}, waiting for its turn where the harness keeps turns; close the
	 * result when it ends.
	 */
	default Span begin(Work work, String what) {
		return Span.NONE;
	}

	/**
	 * Begins one load of {@code users} users (or requests a second of an open loop),
	 * waiting for its turn where the harness keeps turns; close the result when it ends.
	 */
	default Load load(String what, double users) {
		return Load.NONE;
	}

	/**
	 * Begins a run of loads whose sizes it tells as it goes ({@link Load#next}): a
	 * sweep's steps, an A/B run's pairs.
	 */
	default Load loads(String what) {
		return Load.NONE;
	}

	/**
	 * A container has started and answers: {@code cpuNanos} reads the CPU its processes
	 * used so far (negative where it cannot be read). A harness may keep the start's turn
	 * until the container is quiet, inside its {@link Work#CONTAINER_START} span: a JVM
	 * that answers its health check still compiles its start-up for seconds.
	 */
	default void started(String what, LongSupplier cpuNanos) {
	}

	/** A span of work under way; closing it ends it. */
	@FunctionalInterface
	interface Span extends AutoCloseable {

		/** The span of the hook that does nothing. */
		Span NONE = () -> {
		};

		@Override
		void close();

	}

	/** A load, or a run of loads, under way; closing it ends it. */
	interface Load extends Span {

		/** The load of the hook that does nothing. */
		Load NONE = () -> {
		};

		/**
		 * The run's next part (a sweep's next step) drives {@code users} users from now
		 * on.
		 */
		default void next(int users, String what) {
		}

		/** A window a load of this run measured. */
		default void measured(Window window) {
		}

	}

	/**
	 * One measured window of a load.
	 *
	 * @param name the load's name
	 * @param warmUp the warm-up before it
	 * @param length how long it lasted
	 * @param answers the answers counted in it
	 * @param perSecond the answers of each whole second of it
	 * @param replays what it would have read had it ended earlier, computed only when
	 * asked
	 */
	record Window(String name, Duration warmUp, Duration length, long answers, double[] perSecond, Replays replays) {

	}

	/** What a window would have read had it ended earlier. */
	@FunctionalInterface
	interface Replays {

		/** None: a window that cannot be replayed (an open loop's). */
		Replays NONE = (latencies, lengths) -> List.of();

		/**
		 * The window ended after each of {@code latencies} mean latencies (its answers
		 * reaching that many times its users) and after each of {@code lengths}.
		 */
		List<Replay> at(int[] latencies, Duration[] lengths);

	}

	/**
	 * A window replayed as if it had ended earlier.
	 *
	 * @param latencies the mean latencies it would have lasted; 0 for a fixed length
	 * @param length how long it would have lasted
	 * @param throughput its throughput over the whole window's: 1.03 for 3 % more
	 * @param meanLatency its mean latency over the whole window's
	 */
	record Replay(int latencies, Duration length, double throughput, double meanLatency) {

	}

	/**
	 * The hook installed for this JVM's run: {@link #NONE} until a harness installs one.
	 */
	static RunHook installed() {
		return Installed.hook;
	}

	/**
	 * Installs {@code hook} for this JVM's run, in place of the one before; a harness
	 * calls it once, before the loads it watches.
	 */
	static void install(RunHook hook) {
		Installed.hook = (hook != null) ? hook : NONE;
	}

	/** Where the installed hook is kept. */
	final class Installed {

		private static volatile RunHook hook = NONE;

		private Installed() {
		}

	}

}
