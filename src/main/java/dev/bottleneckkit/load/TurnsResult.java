package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.Locale;

/**
 * What a load in turns measured ({@link ClosedLoopLoad#runInTurns}): each side's figures
 * over the whole window (its latencies are those of its requests), and each side's rate
 * at full load, the figure to compare. Every turn begins with the other side's last
 * requests in flight, one a user; the drain takes a slower side's turn further into the
 * next, so that counting each side's answers in its own turns bends a ratio away from 1
 * (a side 5 % slower read 0.924 in 250 ms turns). A side's rate at full load counts its
 * answers once the other side's last one is in, over the time from then to its turns'
 * ends: every user on its side, and nothing of the other's left. Its requests are counted
 * by their lives, as a window's throughput is: each the share of its life that falls
 * there.
 *
 * @param first the first side's requests, over the window
 * @param second the second side's
 * @param firstSide the first side's answers in its turns and at full load
 * @param secondSide the second side's
 * @param turn the length of a turn
 * @param turnsEach the turns each side had in the window
 */
public record TurnsResult(LoadResult first, LoadResult second, Side firstSide, Side secondSide, Duration turn,
		int turnsEach) {

	/**
	 * One side's answers in its own turns, and at full load.
	 *
	 * @param answers its answers in its own turns
	 * @param answeredAtFullLoad those of them after the other side's last answer in the
	 * turn
	 * @param atFullLoad its requests after the other side's last answer in each of its
	 * turns, each counted by the share of its life that falls there
	 * @param fullLoad the time from that answer to each of its turns' end, added up
	 */
	public record Side(long answers, long answeredAtFullLoad, double atFullLoad, Duration fullLoad) {

		/**
		 * Answers a second at full load, its requests counted by their lives; NaN when
		 * the other side's drain took whole turns.
		 */
		public double rate() {
			return this.fullLoad.isZero() ? Double.NaN : this.atFullLoad / (this.fullLoad.toNanos() / 1e9);
		}

		/**
		 * Answers a second at full load, whole answers counted: what a request's phase at
		 * the drain's end moves where a service's threads run in step.
		 */
		public double answeredRate() {
			return this.fullLoad.isZero() ? Double.NaN : this.answeredAtFullLoad / (this.fullLoad.toNanos() / 1e9);
		}

		/** The share of its turns this side had at full load, 0 to 1. */
		double fullShare(Duration turns) {
			return (double) this.fullLoad.toNanos() / turns.toNanos();
		}

	}

	/** The second side's rate at full load over the first's. */
	public double ratio() {
		return this.secondSide.rate() / this.firstSide.rate();
	}

	/**
	 * "in 500 ms turns, 6 each: 812.0 / 790.3 rps at full load (91 % of the turns),
	 * second / first 0.973".
	 */
	@Override
	public String toString() {
		Duration turns = this.turn.multipliedBy(this.turnsEach);
		return String.format(Locale.ROOT,
				"in %d ms turns, %d each: %.1f / %.1f rps at full load (%.0f %% / %.0f %% of the turns), second / first"
						+ " %.3f",
				this.turn.toMillis(), this.turnsEach, this.firstSide.rate(), this.secondSide.rate(),
				100 * this.firstSide.fullShare(turns), 100 * this.secondSide.fullShare(turns), ratio());
	}

}
