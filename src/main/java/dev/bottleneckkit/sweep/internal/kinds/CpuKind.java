package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.Demands;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKind;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;

/**
 * CPU: the service's container at its limit, or the machine's cores ({@link #cpu}), asked
 * last: the cores over the CPU of a request. A container's own limit is its knob
 * ({@code where} "service"); the machine's cores have none.
 * <p>
 * It also reads the root of another kind's verdict ({@link #rooted}). Where a pool and
 * the CPU fill together, which of the two moves the ceiling? A pool whose holds wait for
 * a core is full because the CPU is: its Little's law holds (limit over its hold at the
 * cap), yet raising it gains nothing. So when the rules name a pool
 * ({@link ResourceKind#weighedAgainstTheCpu}) and the cores that serve it are full too,
 * with the CPU's model as near the ceiling, the pool's own hold is compared with its hold
 * at one user:
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
public final class CpuKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CPU;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(CpuKind::cpu);
	}

	@Override
	public boolean demanded() {
		return true;
	}

	@Override
	public Optional<Verdict.Bound> demand(Step step) {
		return cpuBound(step);
	}

	/**
	 * The CPU a request took on the knob's own step: a JVM started on other CPUs is
	 * another (its collector and compiler threads follow its CPUs, and one on a single
	 * CPU warms slower), and the confirmation is held to the cores it used.
	 */
	@Override
	public Optional<Raised> asRaised(Step step) {
		return cpuBound(step)
			.map((bound) -> new Raised(bound, "the CPU with the knob turned, as its step read it", true));
	}

	@Override
	public Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.filter("service"::equals)
			.map((where) -> new KnobFamily(0.1,
					(value) -> Knob.of(Knobs.count(value) + " CPUs", 1, (container) -> container.withCpuLimit(value))));
	}

	/**
	 * CPU. A service with a CPU limit of its own: its container at that limit. Without
	 * one: the machine's cores busy, whoever uses them (the service, its database and
	 * proxies, the load generator), with the split. The utilization law on the step that
	 * measured the ceiling: CPU per request S = cores used × step time / requests, and
	 * the model cores / S.
	 */
	static Optional<Capped> cpu(AtCap at) {
		Optional<Step> limited = saturatedCpuStep(at, true);
		if (limited.isPresent()) {
			Step.Cpu use = limited.get().cpu().orElseThrow();
			Duration perRequest = Demands.perRequest(use.service(), limited.get());
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("cores used",
					String.format(Locale.ROOT, "%.2f of %s", use.service(), Knobs.count(use.serviceLimit())));
			readings.put("CPU per request", Demands.cpuPerRequest(perRequest, limited.get()));
			if (use.serviceCores() < use.serviceLimit() - 0.005) {
				readings.put("cores it could have",
						String.format(Locale.ROOT,
								"%.2f of its %s: the machine's %s cores were full, %.2f of them with other processes",
								use.serviceCores(), Knobs.count(use.serviceLimit()), Knobs.count(use.machineCores()),
								use.others()));
			}
			return Optional.of(at.capped(Resource.CPU,
					String.format(Locale.ROOT, "the service used %.2f of its %s CPU with %s", use.service(),
							Knobs.count(use.serviceLimit()), AtCap.usersText(limited.get().users())),
					new Verdict.Model(use.serviceCores(), "cores", perRequest, "CPU per request"),
					Optional.of("service"), readings));
		}
		Optional<Step> machine = saturatedCpuStep(at, false);
		if (machine.isEmpty()) {
			return Optional.empty();
		}
		Step.Cpu use = machine.get().cpu().orElseThrow();
		// The utilization law on the test's own CPU: the cores other processes left it,
		// over what the service, its neighbours and the load generator spent a request.
		// Another process's load bends no model: it lowers the cores, not the demand.
		double available = use.machineCores() - use.others();
		Duration perRequest = Demands.perRequest(use.machineUsed() - use.others(), machine.get());
		if (!(available > 0) || perRequest.isZero()) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("machine cores used",
				String.format(Locale.ROOT, "%.2f of %s", use.machineUsed(), Knobs.count(use.machineCores())));
		readings.put("split", Demands.split(use));
		readings.put("CPU per request",
				Demands.cpuPerRequest(perRequest, machine.get()) + " (service, its neighbours and the load generator)");
		String generatorNote = (use.generator() >= AnalysisPolicy.GENERATOR_NOTE * use.machineCores())
				? String.format(Locale.ROOT,
						"; the load generator took %.0f %% of the machine, so the service alone"
								+ " would go further on a machine of its own",
						100 * use.generator() / use.machineCores())
				: "";
		if (!generatorNote.isEmpty()) {
			readings.put("load generator", generatorNote.substring(2));
		}
		return Optional.of(at.capped(Resource.CPU,
				String.format(Locale.ROOT, "the machine's %s cores were busy with %s: %s%s",
						Knobs.count(use.machineCores()), AtCap.usersText(machine.get().users()), Demands.split(use),
						generatorNote),
				new Verdict.Model(available, "cores", perRequest, "CPU per request"), Optional.of("machine"),
				readings));
	}

	/**
	 * Of the steps at the cap whose service container ({@code limited}) or machine was at
	 * its cores, and not by its JIT compilers ({@link #filledByTheCompilers}), the
	 * fullest (within {@value AnalysisPolicy#FULLEST} of its cores), and of those the one
	 * with the highest throughput. The utilization law's demand is a request's CPU with
	 * the cores busy: a knee's step at 0.89 of its core left it idle 11 % of its seconds,
	 * and its cheaper requests (fewer threads queued) promise a ceiling the core never
	 * gave (52.1 rps at 0.89 of 1 CPU read "1 core / 0.017 s = 58.3"; the next step, at
	 * 0.98, 50.5 rps at 0.019 s).
	 */
	private static Optional<Step> saturatedCpuStep(AtCap at, boolean limited) {
		// Cores the JIT compilers filled are no cap of the requests': a step whose
		// compilers took at least half of what its cores did measured the JIT.
		List<Step> saturated = at.atCap()
			.stream()
			.filter((s) -> s.cpu().isPresent() && !filledByTheCompilers(s, limited))
			.filter((s) -> {
				Step.Cpu use = s.cpu().get();
				boolean machineFull = use.machineUsed() >= AnalysisPolicy.CPU_SATURATED * use.machineCores();
				return limited
						? use.serviceLimited() && use.service() >= AnalysisPolicy.CPU_SATURATED * use.serviceLimit()
								&& !(machineFull && machineFuller(use))
						: share(s, false) >= AnalysisPolicy.CPU_SATURATED
								&& (!use.serviceLimited() || machineFuller(use));
			})
			.toList();
		double fullest = saturated.stream().mapToDouble((s) -> share(s, limited)).max().orElse(0);
		return saturated.stream()
			.filter((s) -> share(s, limited) >= fullest - AnalysisPolicy.FULLEST)
			.max(Comparator.comparingDouble(Step::throughput));
	}

	/**
	 * Whether the JIT compilers took at least half of the CPU the service's container
	 * ({@code limited}) or the machine used in {@code step}: cores that full measured the
	 * JIT, and once it is done the requests alone would leave them at most half busy.
	 */
	static boolean filledByTheCompilers(Step step, boolean limited) {
		Step.Cpu use = step.cpu().orElseThrow();
		double used = limited ? use.service() : use.machineUsed();
		return step.compilerCores().isPresent() && step.compilerCores().getAsDouble() >= used / 2;
	}

	/**
	 * The share of its cores the service container ({@code limited}) used, or the share
	 * the test's own processes used of the machine's cores that other processes left. Not
	 * the machine's: a neighbour taking a core of two at the same priority leaves the
	 * test one, and a step whose processes used 0.81 of the 0.97 left, the machine 1.85
	 * of 2 busy, had a core's sixth idle (its requests waited on a pool, not a core).
	 */
	private static double share(Step step, boolean limited) {
		Step.Cpu use = step.cpu().orElseThrow();
		if (limited) {
			return use.service() / use.serviceLimit();
		}
		double left = use.machineCores() - use.others();
		return (left > 0) ? (use.machineUsed() - use.others()) / left : 0;
	}

	/**
	 * The machine's cores fuller than the service's CPU limit: a service short of its
	 * limit on a machine with no core to spare (0.93 of its 1 CPU, the machine's 2 cores
	 * 1.99 busy with a busy loop on one) is capped by the cores the others left it, not
	 * by its limit.
	 */
	private static boolean machineFuller(Step.Cpu use) {
		return use.machineUsed() / use.machineCores() > use.service() / use.serviceLimit();
	}

	/**
	 * The reading a verdict turned from a pool to the CPU carries: what the pool's own
	 * hold said, and what raising each gains.
	 */
	static final String ROOT = "root";

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
	@Override
	public Capped rooted(AtCap at, Capped verdict) {
		if (!ResourceKinds.of(verdict.resource()).weighedAgainstTheCpu()) {
			return verdict;
		}
		Optional<Capped> cpu = cpu(at).filter((capped) -> capped.modelError() <= AnalysisPolicy.MODEL_AGREEMENT);
		if (cpu.isEmpty()) {
			return verdict;
		}
		String pool = verdict.resource().description();
		double cores = cpu.get().model().rps();
		// A neighbour at the same priority yields cores to the service's added threads:
		// what the pool gains is bounded only while it keeps what it took, the cores the
		// CPU's model left out.
		String shared = (at.neighbours().isPresent() && "machine".equals(cpu.get().where().orElse("")))
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
				100 * gain(own, at.ceiling()), pool, Knobs.count(verdict.model().limit()),
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
	@Override
	public List<Verdict.Bound> unqueued(AtCap at, Verdict verdict, List<Verdict.Bound> bounds) {
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

	/**
	 * The cores over the CPU of a request of {@code step}, as the CPU rule reads them:
	 * the test's own CPU over the cores others left it.
	 */
	static Optional<Verdict.Bound> cpuBound(Step step) {
		long requests = Demands.requests(step);
		if (step.cpu().isEmpty() || requests <= 0) {
			return Optional.empty();
		}
		Step.Cpu use = step.cpu().get();
		double cores = use.serviceLimited() ? use.service() : use.machineUsed() - use.others();
		double limit = use.serviceLimited() ? use.serviceCores() : use.machineCores() - use.others();
		if (!(cores > 0.01)) {
			return Optional.empty();
		}
		return Optional.of(new Verdict.Bound(Resource.CPU,
				use.serviceLimited() ? "CPU (" + Knobs.count(limit) + " of the container's)"
						: "CPU (the machine's " + Knobs.count(limit) + " cores)",
				new Verdict.Model(limit, "cores", Demands.perRequest(cores, step), "CPU per request")));
	}

}
