package dev.bottleneckkit.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load slots of a JVM, taken first come first served. With one slot a load runs
 * alone. With more, a load goes beside those already running only when the machine shows
 * it has the CPU: each of them began at least {@link #SETTLE} ago, and over a reading of
 * at least {@link Machine#READING} taken since then the machine's cores were busy at most
 * {@code besideBelow} of the time. A load waiting for room beside others keeps its place:
 * nobody behind it overtakes, and it runs alone once they end.
 */
final class LoadSlots {

	private static final Logger log = LoggerFactory.getLogger(LoadSlots.class);

	/**
	 * How long a running load goes before its CPU counts: its users connect and its first
	 * answers come in a burst.
	 */
	static final Duration SETTLE = Duration.ofSeconds(1);

	private static final long POLL_MILLIS = 100;

	private final int slots;

	private final Machine machine;

	private final double besideBelow;

	private int free;

	private final Deque<Object> queue = new ArrayDeque<>();

	private final List<Held> running = new ArrayList<>();

	LoadSlots(int slots, Machine machine, double besideBelow) {
		this.slots = slots;
		this.free = slots;
		this.machine = machine;
		this.besideBelow = besideBelow;
	}

	/** The slots there are. */
	int slots() {
		return this.slots;
	}

	/**
	 * Waits for {@code permits} slots (at least one, at most every slot there is) and
	 * takes them; give them back with {@link #give(Held)}.
	 */
	Held take(int permits, String what) throws InterruptedException {
		return take(permits, what, false);
	}

	/**
	 * Takes {@code permits} slots for a load that holds {@code held} now, which it gives
	 * back: at once when it needs fewer (those it keeps count as taken now, so a load
	 * goes beside it only once it settled again), else by waiting at the head of the
	 * queue, so nobody who came later overtakes a load between two of its steps.
	 */
	Held reweigh(Held held, int permits, String what) throws InterruptedException {
		int wanted = Math.max(1, Math.min(permits, this.slots));
		synchronized (this) {
			if (wanted <= held.permits() && this.running.remove(held)) {
				this.free += held.permits() - wanted;
				Held kept = new Held(wanted, System.nanoTime(), held.busyWhenJoined());
				this.running.add(kept);
				notifyAll();
				return kept;
			}
		}
		give(held);
		return take(wanted, what, true);
	}

	private Held take(int permits, String what, boolean first) throws InterruptedException {
		int wanted = Math.max(1, Math.min(permits, this.slots));
		Object ticket = new Object();
		synchronized (this) {
			if (first) {
				this.queue.addFirst(ticket);
			}
			else {
				this.queue.addLast(ticket);
			}
			try {
				while (true) {
					if (this.queue.peekFirst() == ticket && this.free >= wanted) {
						if (this.running.isEmpty()) {
							return hold(wanted, OptionalDouble.empty());
						}
						OptionalDouble busy = roomBeside();
						if (busy.isPresent()) {
							log.info(
									"{} runs beside {} other load(s): the machine's cores {} % busy since they settled",
									what, this.running.size(),
									String.format(Locale.ROOT, "%.0f", 100 * busy.getAsDouble()));
							return hold(wanted, busy);
						}
					}
					wait(POLL_MILLIS);
				}
			}
			finally {
				this.queue.remove(ticket);
				notifyAll();
			}
		}
	}

	/** Gives back what {@link #take} took. */
	synchronized void give(Held held) {
		if (this.running.remove(held)) {
			this.free += held.permits();
			notifyAll();
		}
	}

	private Held hold(int permits, OptionalDouble busyWhenJoined) {
		Held held = new Held(permits, System.nanoTime(), busyWhenJoined);
		this.free -= permits;
		this.running.add(held);
		return held;
	}

	/**
	 * The machine's busy share since every running load settled, when it leaves room for
	 * one more; empty while it does not, or has no reading yet.
	 */
	private OptionalDouble roomBeside() {
		long since = Long.MIN_VALUE;
		for (Held held : this.running) {
			since = Math.max(since, held.began() + SETTLE.toNanos());
		}
		if (System.nanoTime() < since) {
			return OptionalDouble.empty();
		}
		OptionalDouble busy = this.machine.busyShareSince(since);
		return (busy.isPresent() && busy.getAsDouble() <= this.besideBelow) ? busy : OptionalDouble.empty();
	}

	/**
	 * Slots taken.
	 *
	 * @param permits how many
	 * @param began when (nanoTime)
	 * @param busyWhenJoined the machine's busy share that let it go beside other loads;
	 * empty when it began alone
	 */
	record Held(int permits, long began, OptionalDouble busyWhenJoined) {

	}

	/** How busy the machine's cores are. */
	interface Machine {

		/** The least length of a reading. */
		Duration READING = Duration.ofMillis(500);

		/**
		 * The share of the machine's core time that was busy, 0 to 1, over a reading of
		 * at least {@link #READING} that began at or after {@code since} (nanoTime);
		 * empty when there is no such reading yet. Asked again and again while a load
		 * waits.
		 */
		OptionalDouble busyShareSince(long since);

		/**
		 * This machine, read from {@code /proc/stat}; never a reading where there is
		 * none.
		 */
		static Machine procStat() {
			return new ProcStat(Path.of("/proc/stat"));
		}

	}

	/**
	 * {@code /proc/stat}'s first line:
	 * {@code cpu user nice system idle iowait irq softirq
	 * steal}; busy is all but idle and iowait.
	 */
	static final class ProcStat implements Machine {

		private final Path file;

		/** The reading the next share begins at: nanoTime, busy ticks, all ticks. */
		private long[] from;

		private OptionalDouble share = OptionalDouble.empty();

		private long shareBegan;

		ProcStat(Path file) {
			this.file = file;
		}

		@Override
		public synchronized OptionalDouble busyShareSince(long since) {
			long now = System.nanoTime();
			Optional<long[]> reading = read();
			if (reading.isEmpty()) {
				return OptionalDouble.empty();
			}
			long[] ticks = reading.get();
			if (this.from == null || this.from[0] < since) {
				this.from = new long[] { now, ticks[0], ticks[1] };
			}
			else if (now - this.from[0] >= READING.toNanos() && ticks[1] > this.from[2]) {
				this.share = OptionalDouble.of((ticks[0] - this.from[1]) / (double) (ticks[1] - this.from[2]));
				this.shareBegan = this.from[0];
				this.from = new long[] { now, ticks[0], ticks[1] };
			}
			return (this.share.isPresent() && this.shareBegan >= since) ? this.share : OptionalDouble.empty();
		}

		/** The machine's busy and all ticks now; empty where they cannot be read. */
		Optional<long[]> ticks() {
			return read();
		}

		private Optional<long[]> read() {
			try {
				return parse(Files.readAllLines(this.file).get(0));
			}
			catch (IOException | RuntimeException ex) {
				return Optional.empty();
			}
		}

		/** Busy and all ticks of the machine's {@code cpu} line; empty for any other. */
		static Optional<long[]> parse(String line) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length < 5 || !fields[0].equals("cpu")) {
				return Optional.empty();
			}
			long busy = 0;
			long all = 0;
			for (int i = 1; i < Math.min(fields.length, 9); i++) {
				long value = Long.parseLong(fields[i]);
				all += value;
				if (i != 4 && i != 5) {
					busy += value;
				}
			}
			return Optional.of(new long[] { busy, all });
		}

	}

}
