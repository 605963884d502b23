package dev.bottleneckkit.sweep.internal.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;

/**
 * The one step loop of a sweep: steps at 1, 2, 4, … users on one service, or on two side
 * by side (an A/B run's base and head), until throughput stops rising on every side. At
 * each count every side takes its step in turn, the order turning from one count to the
 * next (A B, then B A) so that neither side always goes first. A side is done when a
 * doubling is flat ({@link #flat}) with the plateau seen ({@link #plateauSeen}), or its
 * route stops answering; it keeps stepping while another side climbs, so that every side
 * has a step at every count. The load generator at its own limit ends the climb for all.
 */
public final class Climb {

	/** A doubling of the users that raises throughput by less than this share is flat. */
	static final double FLAT_GAIN = 1.15;

	/** ... when latency grew by at least this factor: the extra users queued. */
	static final double QUEUED_LATENCY = 1.5;

	/**
	 * ... or when at least this share of a step's answers were errors: the extra users
	 * were turned away.
	 */
	static final double REJECTED_SHARE = 0.1;

	private final String name;

	private final List<Side> sides;

	private final int maxUsers;

	public Climb(String name, List<Side> sides, int maxUsers) {
		this.name = name;
		this.sides = List.copyOf(sides);
		this.maxUsers = maxUsers;
	}

	/** The sides, in the order they were given. */
	List<Side> sides() {
		return this.sides;
	}

	/** What is told after each count's steps. */
	@FunctionalInterface
	public interface AtEachCount {

		/** {@code users}' steps, one per side in the sides' order. */
		void stepped(int users, List<Step> steps);

	}

	/**
	 * Climbs on from the sides' last count (from one user at first) until every side is
	 * done or {@code maxUsers} is passed, telling {@code loading} each count's users and
	 * {@code told} its steps.
	 */
	public void climb(RunHook.Load loading, AtEachCount told) {
		int count = this.sides.stream().mapToInt((side) -> side.steps.size()).min().orElse(0);
		for (int users = 1 << count; users <= this.maxUsers; users *= 2, count++) {
			loading.next(users, this.name + ", " + users + ((users == 1) ? " user" : " users"));
			Step[] steps = new Step[this.sides.size()];
			for (int turn = 0; turn < this.sides.size(); turn++) {
				int index = (turn + count) % this.sides.size();
				Side side = this.sides.get(index);
				steps[index] = side.stepper.step(users, side.steps, side.probes);
			}
			boolean generatorSaturated = false;
			for (int index = 0; index < steps.length; index++) {
				this.sides.get(index).add(steps[index]);
				generatorSaturated |= steps[index].result().generatorSaturated();
			}
			told.stepped(users, Arrays.asList(steps));
			if (generatorSaturated || this.sides.stream().allMatch((side) -> side.done)) {
				return;
			}
		}
	}

	/** How a side measures a step: {@code users} after the steps {@code before}. */
	@FunctionalInterface
	public interface Stepper {

		Step step(int users, List<Step> before, Probes probes);

	}

	/**
	 * One service climbing: how it steps, its probes, its steps so far, and how they
	 * ended.
	 */
	public static final class Side {

		private final Stepper stepper;

		private final Probes probes;

		private final List<Step> steps = new ArrayList<>();

		private boolean done;

		private boolean saturated;

		public Side(Stepper stepper, Probes probes) {
			this.stepper = stepper;
			this.probes = probes;
		}

		/** The side's steps, one user first, doubling. */
		public List<Step> steps() {
			return List.copyOf(this.steps);
		}

		/** Whether its throughput stopped rising within the climb. */
		public boolean saturated() {
			return this.saturated;
		}

		/**
		 * Takes {@code again}, its steps with some measured again, in their place, and
		 * reads them as the climb would have: whether they still end it. Where warm
		 * figures no longer show the plateau (4 users read 16.5 rps and 8 users 18.0
		 * while the compilers worked, and 15.4 and 18.2 warm), the climb goes on from
		 * there.
		 */
		public boolean takeAgain(List<Step> again) {
			this.steps.clear();
			this.done = false;
			this.saturated = false;
			again.forEach(this::add);
			return this.done;
		}

		private void add(Step step) {
			this.steps.add(step);
			if (this.done) {
				return;
			}
			if (step.result().generatorSaturated() || step.result().succeeded() == 0) {
				this.done = true;
				this.saturated = step.result().generatorSaturated() || this.steps.size() > 1;
			}
			else if (this.steps.size() >= 2) {
				// A flat doubling is saturation; the side is done once the plateau shows.
				// Where the users run out first, its last doubling says.
				this.saturated = flat(this.steps.get(this.steps.size() - 2), step);
				this.done = this.saturated && plateauSeen(this.steps);
			}
		}

	}

	/**
	 * Whether the steps show the cap as a plateau, not only its edge: the last step fell
	 * below the best, or another step reached the knee's share of it too. A flat doubling
	 * whose step is the only one at the cap (4 users at 0.89 of the ceiling, 8 users at
	 * it) would leave the analysis one step at the cap, where what holds flat while users
	 * double (a pool's connections) cannot be read: one more doubling shows it. A plateau
	 * from one user takes a third step too: where a service serves each connection on one
	 * event loop (Netty, Vert.x), two users' connections can land on the same loop among
	 * the other connections it accepts, and queue behind each other where four users
	 * would not.
	 */
	public static boolean plateauSeen(List<Step> steps) {
		if (steps.size() < 3) {
			return false;
		}
		double ceiling = steps.stream().mapToDouble(Step::throughput).max().orElse(0);
		Step last = steps.get(steps.size() - 1);
		return last.throughput() < ceiling || steps.stream()
			.filter((step) -> step.throughput() >= AnalysisPolicy.KNEE_SHARE * ceiling)
			.count() >= 2;
	}

	/**
	 * Doubling the users gained less than {@value #FLAT_GAIN}x throughput while the extra
	 * users queued (latency grew {@value #QUEUED_LATENCY}x) or were turned away (at least
	 * {@value #REJECTED_SHARE} of the answers were errors, more than before: a pool with
	 * a pending limit fails the extra users fast instead of making them wait).
	 */
	public static boolean flat(Step before, Step after) {
		if (after.throughput() >= FLAT_GAIN * before.throughput()) {
			return false;
		}
		// Queued: the mean latency grew, or, by Little's law, the time each user's
		// request took (users / throughput) did. Under CPU pressure a queue stops being
		// fair: the answers that come back are the quick ones, and only users /
		// throughput shows the wait.
		boolean queued = after.meanLatency().toNanos() >= QUEUED_LATENCY * before.meanLatency().toNanos()
				|| cycle(after) >= QUEUED_LATENCY * cycle(before);
		return queued || (errorShare(after) >= REJECTED_SHARE && errorShare(after) > errorShare(before));
	}

	/**
	 * Seconds per request per user by Little's law: users / throughput; infinite without
	 * answers.
	 */
	private static double cycle(Step step) {
		return (step.throughput() <= 0) ? Double.POSITIVE_INFINITY : step.users() / step.throughput();
	}

	private static double errorShare(Step step) {
		long completed = step.result().completed();
		return (completed == 0) ? 0 : step.result().errorCount() / (double) completed;
	}

}
