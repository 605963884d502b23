package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.bottleneckkit.internal.RunHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook a suite of scenario classes run side by side installs: container starts and
 * loads take turns ({@link Phases}), and where the run's seconds went is counted
 * ({@link Budget}) for the report. The {@code @Scenario} extension installs it when JUnit
 * runs classes at once or {@code -Dbottleneck.schedule=shared} asks for it; a user's
 * tests, one class at a time, run with none.
 */
final class SuiteHook implements RunHook {

	private static final Logger log = LoggerFactory.getLogger(SuiteHook.class);

	/**
	 * The shorter windows the budget replays each window as: ended after this many mean
	 * latencies...
	 */
	private static final int[] REPLAYED_LATENCIES = { 2, 3, 4, 6, 8 };

	/** ...and after this long. */
	private static final Duration[] REPLAYED_LENGTHS = { Duration.ofSeconds(2), Duration.ofSeconds(3),
			Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(6) };

	private final Phases phases;

	SuiteHook(Phases phases) {
		this.phases = phases;
	}

	/**
	 * Installs the suite's hook for this JVM's run, once: from then on starts and loads
	 * take turns and the budget is recorded. {@code why} is logged.
	 */
	static synchronized void install(String why) {
		if (!installed()) {
			RunHook.install(new SuiteHook(new Phases(Phases.LOADS_AT_ONCE, LoadSlots.Machine.procStat())));
			log.info("starts and loads take turns: {} ({} load slots)", why, Phases.LOADS_AT_ONCE);
		}
	}

	/** Whether this JVM's run has the suite's hook. */
	static boolean installed() {
		return RunHook.installed() instanceof SuiteHook;
	}

	/** From now on, this thread's spans count for {@code className}, once installed. */
	static void owner(String className) {
		if (installed()) {
			Budget.owner(className);
		}
	}

	/** A class's own container starts, counted once however many run at once. */
	static Span classStarts() {
		return installed() ? Budget.span(Budget.Category.STARTS)::close : Span.NONE;
	}

	/** The whole of a class's run, from its first container to its last test's end. */
	static void wall(String className, long nanos) {
		if (installed()) {
			Budget.wall(className, nanos);
		}
	}

	@Override
	public Span begin(Work work, String what) {
		return switch (work) {
			case CONTAINER_START -> this.phases.take(Phases.Phase.STARTING, what, 1)::close;
			case SWEEP_START -> Budget.span(Budget.Category.STARTS)::close;
			case WARM_UP -> Budget.windowsAs(Budget.Category.WARM_UPS)::close;
			case PROBE -> Budget.span(Budget.Category.PROBES)::close;
			case IMAGE -> Budget.span(Budget.Category.IMAGES)::close;
			case CONTAINER_STOP -> stopping(what);
		};
	}

	/**
	 * The longest a container's stop waits for its turn: longer than a sweep's loads
	 * take, short enough that a stop at the JVM's exit beside a load that never ends
	 * still happens.
	 */
	static final Duration STOP_WAITS_AT_MOST = Duration.ofMinutes(3);

	/**
	 * A container's stop takes a turn among the starts: a JVM's shutdown and its
	 * container's removal are CPU work that bends a load beside them, as a start's is.
	 */
	private Span stopping(String what) {
		Phases.Turn turn = this.phases.take(Phases.Phase.STARTING, what, 1, STOP_WAITS_AT_MOST.toNanos());
		Span counted = Budget.span(Budget.Category.STOPS)::close;
		return () -> {
			counted.close();
			turn.close();
		};
	}

	/**
	 * The most of a core a started container may use over {@link #QUIET_OVER} for its
	 * start to be over: a JVM that answered its health check still compiles its start-up
	 * for seconds (five services that answered 0.1 s before S1's 40-user load began were
	 * still starting beside it).
	 */
	static final double QUIET_CORES = 0.25;

	/** What the CPU of a started container is read over. */
	static final Duration QUIET_OVER = Duration.ofSeconds(1);

	/** How often it is read. */
	static final Duration READ_EVERY = Duration.ofMillis(250);

	/** The longest a start's turn is kept for its container to go quiet. */
	static final Duration QUIET_AT_MOST = Duration.ofSeconds(10);

	/**
	 * Keeps the start's turn until the container is quiet, at most
	 * {@link #QUIET_AT_MOST}.
	 */
	@Override
	public void started(String what, LongSupplier cpuNanos) {
		long began = System.nanoTime();
		try {
			OptionalDouble cores = untilQuiet(cpuNanos, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
			double waited = (System.nanoTime() - began) / 1e9;
			if (cores.isPresent() && cores.getAsDouble() > QUIET_CORES) {
				log.info("{} still used {} of a core {} s after it answered; its start's turn ends all the same", what,
						String.format(Locale.ROOT, "%.2f", cores.getAsDouble()),
						String.format(Locale.ROOT, "%.1f", waited));
			}
			else {
				log.debug("{} quiet {} s after it answered", what, String.format(Locale.ROOT, "%.1f", waited));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Waits for a number of nanoseconds. */
	@FunctionalInterface
	interface Pause {

		void nanos(long nanos) throws InterruptedException;

	}

	/**
	 * Reads {@code cpuNanos} every {@link #READ_EVERY} ({@code clock} and {@code pause}
	 * keep the time) until the CPU over the last {@link #QUIET_OVER} is at most
	 * {@link #QUIET_CORES} of a core, {@link #QUIET_AT_MOST} ran out, or the CPU cannot
	 * be read: the share of a core last read, empty when none was.
	 */
	static OptionalDouble untilQuiet(LongSupplier cpuNanos, LongSupplier clock, Pause pause)
			throws InterruptedException {
		long began = clock.getAsLong();
		List<long[]> readings = new ArrayList<>();
		OptionalDouble last = OptionalDouble.empty();
		while (true) {
			long now = clock.getAsLong();
			long cpu = cpuNanos.getAsLong();
			if (cpu < 0) {
				return last;
			}
			readings.add(new long[] { now, cpu });
			// The first reading kept is the newest at least QUIET_OVER old.
			while (readings.size() > 1 && now - readings.get(1)[0] >= QUIET_OVER.toNanos()) {
				readings.remove(0);
			}
			long[] first = readings.get(0);
			if (now - first[0] >= QUIET_OVER.toNanos()) {
				last = OptionalDouble.of((cpu - first[1]) / (double) (now - first[0]));
				if (last.getAsDouble() <= QUIET_CORES) {
					return last;
				}
			}
			if (now - began >= QUIET_AT_MOST.toNanos()) {
				return last;
			}
			pause.nanos(READ_EVERY.toNanos());
		}
	}

	@Override
	public Load load(String what, double users) {
		return new Turn(this.phases.take(Phases.Phase.LOADING, what, slots(users)));
	}

	@Override
	public Load loads(String what) {
		return new Turn(this.phases.take(Phases.Phase.LOADING, what, 2));
	}

	/**
	 * Load slots for {@code users}: two above {@value Phases#USERS_PER_SLOT}, else one.
	 */
	static int slots(double users) {
		return (users > Phases.USERS_PER_SLOT) ? 2 : 1;
	}

	/**
	 * A load's turn: its slots, and the run's time and the machine's CPU from the slots
	 * taken on, for the budget.
	 */
	private static final class Turn implements Load {

		private final Phases.Turn turn;

		private final long began = System.nanoTime();

		private final Budget.CpuSince cpu = Budget.cpuSince();

		/**
		 * The machine's CPU since the run's current part began; empty before the first.
		 */
		private Budget.CpuSince part;

		Turn(Phases.Turn turn) {
			this.turn = turn;
		}

		@Override
		public void next(int users, String what) {
			OptionalDouble lastBusy = (this.part != null) ? this.part.busyShare() : OptionalDouble.empty();
			this.turn.weigh(Phases.stepWeight(users, lastBusy), what);
			this.part = Budget.cpuSince();
		}

		@Override
		public void measured(Window window) {
			Budget.load(window.name(), window.warmUp(), window.length(),
					Duration.ofNanos(System.nanoTime() - this.began), window.answers(), window.perSecond(),
					window.replays().at(REPLAYED_LATENCIES, REPLAYED_LENGTHS), this.cpu.busyShare());
		}

		@Override
		public void close() {
			this.turn.close();
		}

	}

}
