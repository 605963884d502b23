package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * Where a pool and the CPU fill together, which of the two moves the ceiling. A pool
 * whose holds wait for a core is full because the CPU is: its Little's law holds (limit
 * over its hold at the cap), yet raising it gains nothing. So when the rules name a pool
 * and the cores that serve it are full too, with the CPU's model as near the ceiling, the
 * pool's own hold is compared with its hold at one user:
 * <ul>
 * <li>grown so far that at its hold with one user the pool would allow more than the
 * cores do (its limit over that hold above the CPU's model): what it grew by is time
 * waiting for a core (the pool's own work, a query, is the same at one user and at the
 * cap), and the root is the CPU; the verdict names it and says what raising the pool
 * gains at most;</li>
 * <li>not grown that far: the pool is full on its own work and names the cap, with what
 * raising it gains at most before the cores cap;</li>
 * <li>its own hold not read (a pool from thread dumps, Tomcat's threads, HttpClient's
 * pool, whose model holds W₁): the readings cannot tell, the verdict keeps the pool and
 * says so, and that {@code confirming()}, turning the pool's knob, would tell.</li>
 * </ul>
 */
final class Roots {

	/**
	 * The reading a verdict turned from a pool to the CPU carries: what the pool's own
	 * hold said, and what raising each gains.
	 */
	static final String ROOT = "root";

	private Roots() {
	}

	/** The machine's cores, as the steps at the cap read them. */
	private static double machineCores(AtCap at) {
		return at.atCap()
			.stream()
			.flatMap((step) -> step.cpu().stream())
			.mapToDouble(Step.Cpu::machineCores)
			.max()
			.orElse(0);
	}

	/** Whether {@code verdict} names the CPU as the root of a pool it found full. */
	static boolean foundTheRoot(Verdict verdict) {
		return verdict instanceof Capped capped && capped.resource() == Resource.CPU
				&& capped.readings().containsKey(ROOT);
	}

	/**
	 * {@code verdict}, or the CPU where the pool it names waits for the cores: see the
	 * class.
	 */
	static Capped rooted(AtCap at, Capped verdict) {
		if (!ResourceKinds.of(verdict.resource()).weighedAgainstTheCpu()) {
			return verdict;
		}
		Optional<Capped> cpu = DemandRules.cpu(at)
			.filter((capped) -> capped.modelError() <= AnalysisPolicy.MODEL_AGREEMENT);
		if (cpu.isEmpty()) {
			return verdict;
		}
		String pool = verdict.resource().description();
		double cores = cpu.get().model().rps();
		// A neighbour at the same priority yields cores to the service's added threads:
		// what the pool gains is bounded only while it keeps what it took, the cores the
		// CPU's model left out.
		String shared = (DemandRules.neighbours(at).isPresent() && "machine".equals(cpu.get().where().orElse("")))
				? String.format(Locale.ROOT,
						" while other processes keep their %.2f cores (the scheduler shares them by runnable threads:"
								+ " a larger pool may win the service more)",
						machineCores(at) - cpu.get().model().limit())
				: "";
		String poolGains = String.format(Locale.ROOT,
				"raising the %s gains at most %.0f %%%s: the cores cap at %.1f rps", pool,
				100 * gain(cores, at.ceiling()), shared, cores);
		String pays = String.format(Locale.ROOT, "; the cores are full too: raising it gains at most %.0f %%%s",
				100 * gain(cores, at.ceiling()), shared);
		Optional<Duration> atOneUser = ownHold(at, verdict);
		if (atOneUser.isEmpty()) {
			return withReading(verdict, pays, "co-saturated",
					"the cores are full too; " + poolGains + ". The readings cannot tell whether the " + pool
							+ " are full because the cores are (their own hold is not read): confirming() turns their"
							+ " knob and would");
		}
		double own = verdict.model().limit() / (atOneUser.get().toNanos() / 1e9);
		String holds = String.format(Locale.ROOT, "its hold %.3f s at 1 user, %.3f s at the cap",
				atOneUser.get().toNanos() / 1e9, verdict.model().hold().toNanos() / 1e9);
		String coresGain = String.format(Locale.ROOT,
				"raising the cores gains at most %.0f %%: at its hold with 1 user the %s allows %s / %.3f s = %.1f rps",
				100 * gain(own, at.ceiling()), pool, Verdict.count(verdict.model().limit()),
				atOneUser.get().toNanos() / 1e9, own);
		if (own <= cores) {
			return withReading(verdict, pays, "co-saturated",
					"the cores are full too; " + holds + ": full on its own work; " + poolGains + "; " + coresGain);
		}
		Map<String, String> readings = new LinkedHashMap<>(cpu.get().readings());
		readings.put(ROOT, "the CPU: the " + pool + " is full too (" + verdict.saw() + "), " + holds
				+ ": its uses wait for a core; " + poolGains + "; " + coresGain);
		return new Capped(Resource.CPU, cpu.get().ceilingRps(), cpu.get().fromUsers(),
				cpu.get().saw() + "; the " + pool + " is full because its uses wait for a core (" + holds
						+ "): raising it gains at most "
						+ String.format(Locale.ROOT, "%.0f %%", 100 * gain(cores, at.ceiling())) + shared,
				cpu.get().model(), cpu.get().where(), readings);
	}

	/** What a resource whose own ceiling is {@code ceiling} gains over {@code now}. */
	private static double gain(double ceiling, double now) {
		return Math.max(0, ceiling / now - 1);
	}

	/**
	 * The pool's own hold of a request with one user, where its own timer measured it
	 * (Hikari's usage timer), from the first step that used it
	 * ({@link ResourceKind#atOneUser}). Also where the verdict counted the pool in thread
	 * dumps: a use that waits for a core leaves the pool's mean in use below its limit
	 * with requests pending (the woken waiter has no core to take the connection), its
	 * timer's Little's law off the ceiling, and the dumps' count the nearer model; what a
	 * use holds with one user is still the timer's.
	 */
	private static Optional<Duration> ownHold(AtCap at, Capped verdict) {
		return ResourceKinds.of(verdict.resource()).atOneUser(at).map(Verdict.Model::hold);
	}

	/**
	 * The ceilings of {@code bounds} with the pool a CPU root found full at its own hold
	 * with one user: waiting for a core is no part of what the pool allows once the cores
	 * are raised.
	 */
	static List<Verdict.Bound> unqueued(AtCap at, Verdict verdict, List<Verdict.Bound> bounds) {
		if (!foundTheRoot(verdict)) {
			return bounds;
		}
		return bounds.stream()
			.map((bound) -> ResourceKinds.of(bound.resource())
				.atOneUser(at)
				.map((own) -> new Verdict.Bound(bound.resource(), bound.what(),
						new Verdict.Model(bound.model().limit(), bound.model().unit(), own.hold(),
								own.holdIs() + " at 1 user")))
				.orElse(bound))
			.sorted(Comparator.comparingDouble((Verdict.Bound bound) -> bound.model().rps()))
			.toList();
	}

	private static Capped withReading(Capped verdict, String saw, String key, String value) {
		Map<String, String> readings = new LinkedHashMap<>(verdict.readings());
		readings.put(key, value);
		return new Capped(verdict.resource(), verdict.ceilingRps(), verdict.fromUsers(), verdict.saw() + saw,
				verdict.model(), verdict.where(), readings);
	}

}
