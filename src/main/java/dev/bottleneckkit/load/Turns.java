package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.Arrays;

/**
 * The clock of a load in turns ({@link ClosedLoopLoad#runInTurns}) and its answers, turn
 * by turn: turns of one length from the window's start, the first side's and the second's
 * in alternation (the warm-up keeps the same clock, backwards). Each side's answers are
 * kept with their starts and ends, so that once the window is over each turn can be split
 * at the other side's last answer in it: before it, the other side was still draining;
 * after it, every user was on this turn's side. A side's rate at full load is counted by
 * its requests' lives, as a window's throughput is ({@link Measurement}): each request
 * counts the share of its life that falls in that part of a turn. Counting whole answers
 * there instead reads the phase of a service whose requests run in step: two servers of 4
 * threads held 20 and 25 ms read 0.85 to 0.89 for their 0.80 in 200 ms turns, the slower
 * one above its own cap.
 */
final class Turns {

	private final long originNanos;

	private final long turnNanos;

	private final int count;

	private final boolean firstGoesFirst;

	/**
	 * Each side's answers whose lives touch the window's turns: start and end (nanoTime)
	 * in turn.
	 */
	private final long[][] answers = { new long[2048], new long[2048] };

	private final int[] answered = new int[2];

	/**
	 * {@code count} turns (an even number) of {@code turn} from {@code originNanos}, the
	 * first side's first where {@code firstGoesFirst}.
	 */
	Turns(long originNanos, Duration turn, int count, boolean firstGoesFirst) {
		this.originNanos = originNanos;
		this.turnNanos = turn.toNanos();
		this.count = count;
		this.firstGoesFirst = firstGoesFirst;
	}

	/** The side whose turn it is at {@code nanos}: 0 the first, 1 the second. */
	int sideAt(long nanos) {
		return sideOf(Math.floorDiv(nanos - this.originNanos, this.turnNanos));
	}

	private int sideOf(long turn) {
		return ((Math.floorMod(turn, 2) == 0) == this.firstGoesFirst) ? 0 : 1;
	}

	private long end() {
		return this.originNanos + this.count * this.turnNanos;
	}

	/**
	 * Side {@code side} answered a request that began at {@code startNanos} at
	 * {@code doneNanos}; kept when its life touches a turn.
	 */
	synchronized void answered(int side, long startNanos, long doneNanos) {
		if (doneNanos <= this.originNanos || startNanos >= end()) {
			return;
		}
		if (this.answered[side] + 2 > this.answers[side].length) {
			this.answers[side] = Arrays.copyOf(this.answers[side], 2 * this.answers[side].length);
		}
		this.answers[side][this.answered[side]++] = startNanos;
		this.answers[side][this.answered[side]++] = doneNanos;
	}

	/**
	 * Each side's answers in its own turns, its answers and its requests' lives after the
	 * other side's last answer in each of its turns, and the time from that answer to the
	 * turn's end, over every turn.
	 */
	synchronized LoadResult.InTurns.Side[] sides() {
		long[] drained = new long[this.count];
		for (int t = 0; t < this.count; t++) {
			drained[t] = this.originNanos + t * this.turnNanos;
		}
		for (int side = 0; side < 2; side++) {
			for (int i = 0; i < this.answered[side]; i += 2) {
				long done = this.answers[side][i + 1];
				int turn = turnOf(done);
				if (turn >= 0 && sideOf(turn) != side) {
					// Its answer came in the other side's turn: that turn's drain lasts
					// until the last such answer.
					drained[turn] = Math.max(drained[turn], done);
				}
			}
		}
		long[] fullNanos = new long[2];
		for (int t = 0; t < this.count; t++) {
			fullNanos[sideOf(t)] += this.originNanos + (t + 1) * this.turnNanos - drained[t];
		}
		LoadResult.InTurns.Side[] sides = new LoadResult.InTurns.Side[2];
		for (int side = 0; side < 2; side++) {
			long own = 0;
			long whole = 0;
			double lives = 0;
			for (int i = 0; i < this.answered[side]; i += 2) {
				long start = this.answers[side][i];
				long done = this.answers[side][i + 1];
				int turn = turnOf(done);
				if (turn >= 0 && sideOf(turn) == side) {
					own++;
					if (done > drained[turn]) {
						whole++;
					}
				}
				double life = Math.max(1, done - start);
				long first = Math.max(0, Math.floorDiv(start - this.originNanos, this.turnNanos));
				long last = Math.min(this.count - 1, (done - 1 - this.originNanos) / this.turnNanos);
				for (long t = first; t <= last; t++) {
					if (sideOf(t) == side) {
						long to = this.originNanos + (t + 1) * this.turnNanos;
						long overlap = Math.min(done, to) - Math.max(start, drained[(int) t]);
						if (overlap > 0) {
							lives += overlap / life;
						}
					}
				}
			}
			sides[side] = new LoadResult.InTurns.Side(own, whole, lives, Duration.ofNanos(fullNanos[side]));
		}
		return sides;
	}

	/** The turn {@code nanos} falls in, or -1 outside the window's turns. */
	private int turnOf(long nanos) {
		return (nanos < this.originNanos || nanos >= end()) ? -1 : (int) ((nanos - this.originNanos) / this.turnNanos);
	}

}
