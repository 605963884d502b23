package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Semaphore;

import dev.bottleneckkit.internal.Knobs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps container starts (and stops) and load runs apart in time when scenario classes
 * run side by side. A container start is CPU work (a JVM loading and compiling a Spring
 * Boot app: two cores for seconds), and so is a stop (its shutdown, its removal); a load
 * run measures latencies and rates that CPU taken away would bend. So the JVM's starts
 * and loads take turns: any number of starts at once, or any number of loads at once,
 * never both. Members of one group that arrive within {@value #ADMISSION_MILLIS} ms of
 * their group's turn beginning join it; later ones wait while the other group waits, so
 * neither group starves. At most {@value #STARTS_AT_ONCE} containers start at once, and
 * one load runs at a time (see {@link #LOADS_AT_ONCE}). With one scenario class at a
 * time, nothing ever waits.
 */
final class Phases {

	private static final Logger log = LoggerFactory.getLogger(Phases.class);

	/** How long after a turn begins members of the same group still join it. */
	static final long ADMISSION_MILLIS = 1500;

	/**
	 * Containers that start at once inside a turn: on two cores, three JVMs starting keep
	 * both busy; more would only stretch every start towards its timeout, which begins
	 * when its container does.
	 */
	static final int STARTS_AT_ONCE = 3;

	private final Semaphore startSlots = new Semaphore(STARTS_AT_ONCE, true);

	/**
	 * Load slots: each load costs the services it drives CPU (a request through a caller
	 * and a downstream is two Spring MVC requests), and on two cores a second load beside
	 * it bends both: a 40-user run at 5 connections measured 7.4 of 9.0 rps with a
	 * 1000-user run beside it, a 4-user fan-out 596 ms instead of 513. So one load at a
	 * time (with {@code -Dbottleneck.loads-at-once=N}, N slots; a load of more than
	 * {@value #USERS_PER_SLOT} users takes two, as a sweep does except for its light
	 * steps, {@link #stepWeight}). With more than one slot, a load goes beside others
	 * only while the machine's cores are busy at most {@value #BESIDE_BELOW} of the time
	 * since those settled ({@link LoadSlots}). Scenario classes side by side still gain:
	 * their container starts run together, and one class's setup, settling and reading of
	 * probes runs while another's load is measured.
	 */
	static final int LOADS_AT_ONCE = loadsAtOnce();

	private static int loadsAtOnce() {
		String value = System.getProperty("bottleneck.loads-at-once", "1");
		try {
			int slots = Integer.parseInt(value.trim());
			if (slots >= 1 && slots <= 16) {
				return slots;
			}
		}
		catch (NumberFormatException ignored) {
			// reported below
		}
		throw new IllegalArgumentException("bottleneck.loads-at-once must be between 1 and 16, was " + value);
	}

	/**
	 * Users of a closed loop (or requests per second of an open one) above which a load
	 * takes two slots.
	 */
	static final int USERS_PER_SLOT = 20;

	/**
	 * The busiest the machine's cores may be, as a share of their time, for a load to go
	 * beside others: on two cores, 0.8 of a core busy leaves more than a core for the
	 * newcomer and what it drives.
	 */
	static final double BESIDE_BELOW = 0.4;

	/**
	 * The load slots a sweep's step takes: one, so that a load may go beside it, when it
	 * has at most {@value #USERS_PER_SLOT} users and the step before it kept the
	 * machine's cores at most half of {@value #BESIDE_BELOW} busy (this step doubles its
	 * users, and may double their CPU); two, as a whole sweep took before, after its
	 * warm-up and when nothing was read.
	 * @param users the step's users
	 * @param lastBusy the machine's busy share over the step before, 0 to 1; empty for
	 * the first step
	 */
	static int stepWeight(int users, OptionalDouble lastBusy) {
		boolean light = users <= USERS_PER_SLOT && lastBusy.isPresent() && 2 * lastBusy.getAsDouble() <= BESIDE_BELOW;
		return light ? 1 : 2;
	}

	private final LoadSlots loadSlots;

	/** What a JVM's test work is doing with the machine. */
	enum Phase {

		/** Starting containers (and building their images): CPU-heavy. */
		STARTING,

		/** Sending load and measuring it: needs the CPU quiet. */
		LOADING;

		Phase other() {
			return (this == STARTING) ? LOADING : STARTING;
		}

	}

	private final Object monitor = new Object();

	private final Map<Phase, Integer> waiting = new EnumMap<>(Map.of(Phase.STARTING, 0, Phase.LOADING, 0));

	/** When the oldest waiter of each group arrived (nanoTime), 0 when none waits. */
	private final Map<Phase, Long> waitingSince = new EnumMap<>(Map.of(Phase.STARTING, 0L, Phase.LOADING, 0L));

	private Phase current;

	private int active;

	private long turnBegan;

	/**
	 * The turn this thread is in, if any: a thread inside one never waits for another (it
	 * would wait for itself).
	 */
	private final ThreadLocal<Turn> held = new ThreadLocal<>();

	Phases(int loadsAtOnce, LoadSlots.Machine machine) {
		this.loadSlots = new LoadSlots(loadsAtOnce, machine, BESIDE_BELOW);
	}

	/** Enters {@code phase} on this schedule. */
	Turn take(Phase phase, String what, int weight) {
		return take(phase, what, weight, Long.MAX_VALUE);
	}

	/**
	 * Enters {@code phase}, or after waiting {@code atMostNanos} for it goes on outside
	 * any turn: for work that must end whatever runs beside it (a container's stop at the
	 * JVM's exit, while a load may still hold its turn).
	 */
	Turn take(Phase phase, String what, int weight, long atMostNanos) {
		if (this.held.get() != null) {
			log.debug("pass-through {} {} thread={}", phase, what, Thread.currentThread().getName());
			return new Turn(null, null);
		}
		long arrived = System.nanoTime();
		synchronized (this.monitor) {
			this.waiting.merge(phase, 1, Integer::sum);
			if (this.waitingSince.get(phase) == 0) {
				this.waitingSince.put(phase, arrived);
			}
			boolean gaveUp = false;
			try {
				while (!admissible(phase)) {
					if (System.nanoTime() - arrived >= atMostNanos) {
						gaveUp = true;
						break;
					}
					this.monitor.wait(100);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while this.waiting to begin " + what, ex);
			}
			finally {
				this.waiting.merge(phase, -1, Integer::sum);
				// Those of this group still waiting now queue behind the other group, as
				// if they had just arrived.
				this.waitingSince.put(phase, (this.waiting.get(phase) == 0) ? 0L : System.nanoTime());
			}
			if (gaveUp) {
				log.info("{} waited {} for its turn and goes on beside the loads", what,
						Knobs.human(Duration.ofNanos(atMostNanos)));
				return new Turn(null, null);
			}
			if (this.current != phase || this.active == 0) {
				this.current = phase;
				this.turnBegan = System.nanoTime();
			}
			this.active++;
			log.debug("enter {} {} this.active={} this.current={} thread={}", phase, what, this.active, this.current,
					Thread.currentThread().getName());
		}
		Turn turn = new Turn(this, phase);
		this.held.set(turn);
		try {
			if (phase == Phase.STARTING) {
				int permits = Math.max(1, Math.min(weight, STARTS_AT_ONCE));
				this.startSlots.acquire(permits);
				turn.permits = permits;
			}
			else {
				turn.load = this.loadSlots.take(weight, what);
			}
		}
		catch (InterruptedException ex) {
			turn.close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while this.waiting to begin " + what, ex);
		}
		// The wait for a slot counts too: with one load at a time, most of a class's
		// waiting is for another class's load to end, not for starts.
		long began = System.nanoTime();
		if (phase == Phase.LOADING) {
			Budget.add(Budget.Category.WAITING, began - arrived);
			turn.began = began;
		}
		long waited = (began - arrived) / 1_000_000;
		if (waited >= 1000) {
			log.info("{} waited {} while {} ran", what, Knobs.human(Duration.ofMillis(waited)),
					(phase == Phase.LOADING) ? "containers started or other loads" : "loads were measured");
		}
		return turn;
	}

	private boolean admissible(Phase phase) {
		Phase other = phase.other();
		if (this.active > 0 && this.current == other) {
			return false;
		}
		if (this.waiting.get(other) == 0) {
			return true;
		}
		if (this.active > 0) {
			// This group's turn: late members join only while it is young, so the other
			// group gets its turn.
			return (System.nanoTime() - this.turnBegan) / 1_000_000 < ADMISSION_MILLIS;
		}
		// Nobody runs and both groups wait: the group whose oldest member waited longest
		// goes first.
		return this.waitingSince.get(phase) <= this.waitingSince.get(other);
	}

	private void leave(Phase phase) {
		synchronized (this.monitor) {
			this.active--;
			log.debug("leave {} this.active={} thread={}", phase, this.active, Thread.currentThread().getName());
			if (this.active == 0) {
				this.monitor.notifyAll();
			}
		}
	}

	/** A phase entered; closing it leaves the phase. */
	static final class Turn implements AutoCloseable {

		/**
		 * The schedule the turn was taken on; null for a turn that passed straight
		 * through.
		 */
		private final Phases phases;

		private final Phase phase;

		private boolean closed;

		/** Start slots taken. */
		private int permits;

		/** The load slots taken, for a load's turn. */
		private LoadSlots.Held load;

		/** When a load's turn began, its slot taken (nanoTime); 0 for a start's. */
		private long began;

		private Turn(Phases phases, Phase phase) {
			this.phases = phases;
			this.phase = phase;
		}

		/**
		 * Holds {@code weight} load slots from now on, for a load whose next part needs
		 * more or fewer of them than the part before it (a sweep's next step): fewer are
		 * given back at once; more are waited for ahead of any load that came later. A
		 * load goes beside it only once its new part settled. Does nothing for a turn
		 * that is not a load's, or one inside another turn.
		 */
		void weigh(int weight, String what) {
			if (this.closed || this.load == null) {
				return;
			}
			long asked = System.nanoTime();
			boolean beside = this.load.busyWhenJoined().isPresent();
			try {
				LoadSlots.Held next = this.phases.loadSlots.reweigh(this.load, weight, what);
				long now = System.nanoTime();
				if (next.permits() > this.load.permits()) {
					// It gave back its slots to wait for more: the part of its turn
					// before the wait counts in the slots' busy time, and the wait is a
					// wait like any other.
					Budget.turn(this.began, asked, beside);
					Budget.add(Budget.Category.WAITING, now - asked);
					this.began = now;
				}
				this.load = next;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while waiting to go on with " + what, ex);
			}
		}

		@Override
		public void close() {
			if (!this.closed && this.phase != null) {
				this.closed = true;
				if (this.permits > 0) {
					this.phases.startSlots.release(this.permits);
				}
				if (this.load != null) {
					this.phases.loadSlots.give(this.load);
				}
				if (this.began != 0) {
					Budget.turn(this.began, System.nanoTime(),
							this.load != null && this.load.busyWhenJoined().isPresent());
				}
				this.phases.held.remove();
				this.phases.leave(this.phase);
			}
		}

	}

}
