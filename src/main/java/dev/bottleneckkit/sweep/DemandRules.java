package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The rules for resources whose model divides by what a request holds them for: carriers
 * held by pinned virtual threads, one lock, the CPU (a container's limit or the machine's
 * cores), and the downstream's own threads, pool or CPU. Each gives its resource the
 * utilization law on the step that measured it: units / what a request demands.
 */
final class DemandRules {

	private DemandRules() {
	}

	/**
	 * A lock with a crowd of request threads waiting for it in a dump of the last step,
	 * and in how many of the dumps at the cap it was busy.
	 */
	private record Crowd(String site, int waiting, int serving, int busyDumps, int dumps, String file) {
	}

	/**
	 * Carriers held by pinned virtual threads. The utilization law on the step: pinned
	 * time per request P (the step's pinned time over its requests) against the JVM's
	 * carriers C: at most C / P requests a second.
	 */
	static Optional<Capped> carriers(AtCap at) {
		List<PinnedEvent> pinned = at.last().heldPins();
		if (pinned.isEmpty()) {
			return Optional.empty();
		}
		Duration total = at.last().pinnedTime();
		double heldAtOnce = total.toNanos() / (double) at.last().wall().toNanos();
		long requests = Demands.requests(at.last());
		if (heldAtOnce < AnalysisPolicy.PINNED_CARRIERS || requests == 0) {
			return Optional.empty();
		}
		int carriers = at.last().carriers().orElse((int) Math.max(1, Math.round(heldAtOnce)));
		Duration pinnedPerRequest = total.dividedBy(requests);
		Duration cpuPerRequest = Demands.onCarriersPerRequest(at.last(), carriers);
		Duration each = total.dividedBy(pinned.size());
		Map.Entry<String, Long> culprit = pinned.stream()
			.collect(Collectors.groupingBy(PinnedEvent::culprit, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElseThrow();
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("pinned events", pinned.size() + " in the " + at.last().users() + "-user step");
		readings.put("pinned each", String.format(Locale.ROOT, "%.1f ms on average", each.toNanos() / 1e6));
		readings.put("pinned per request",
				String.format(Locale.ROOT, "%.1f ms (%d requests)", pinnedPerRequest.toNanos() / 1e6, requests));
		readings.put("on a carrier per request",
				String.format(Locale.ROOT, "%.1f ms pinned + %.1f ms on the CPU%s", pinnedPerRequest.toNanos() / 1e6,
						cpuPerRequest.toNanos() / 1e6,
						at.last().carrierCores().isPresent() ? " (read from the carrier threads)" : ""));
		readings.put("carriers held at once", String.format(Locale.ROOT, "%.2f of %d", heldAtOnce, carriers));
		readings.put("culprit", culprit.getKey() + " ×" + culprit.getValue());
		pinned.stream()
			.map(PinnedEvent::pinnedReason)
			.flatMap(Optional::stream)
			.findFirst()
			.ifPresent((reason) -> readings.put("pinned reason", reason));
		return Optional.of(at.capped(Resource.CARRIER_THREADS,
				String.format(Locale.ROOT, "%d pinned events of %.1f ms, %.2f of %d carriers held at once, culprit %s",
						pinned.size(), each.toNanos() / 1e6, heldAtOnce, carriers, culprit.getKey()),
				Demands.carriersModel(at.last(), carriers, pinnedPerRequest), Optional.of(culprit.getKey()), readings));
	}

	/**
	 * A crowd at one lock: most request threads of a dump of the last step wait for a
	 * lock taken in one place (threads waiting for their own answers, in {@code block()}
	 * or {@code Future.get}, do not count). One holder at a time, so the utilization law
	 * gives its hold S = U / X: U the share of the dumps at the cap in which the lock was
	 * busy (someone waiting for it, or holding it), X the step's throughput; and the
	 * model 1 / S. A dump is taken thread by thread, not at one instant, so a holder is
	 * often missed while a hand-off is under way; a queue is seen whole, and a lock with
	 * a queue is busy.
	 */
	static Optional<Capped> lock(AtCap at) {
		return crowdedLock(at).map((crowd) -> {
			double busy = crowd.busyDumps / (double) crowd.dumps;
			Duration hold = Duration.ofNanos(Math.round(busy / at.last().throughput() * 1e9));
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("request threads waiting for the lock",
					crowd.waiting + " of " + crowd.serving + " (thread dump " + crowd.file + ")");
			readings.put("lock busy",
					String.format(Locale.ROOT, "in %d of %d dumps at the cap", crowd.busyDumps, crowd.dumps));
			readings.put("lock taken in", crowd.site);
			return at.capped(Resource.LOCK,
					String.format(Locale.ROOT, "%d of %d request threads wait for a lock taken in %s", crowd.waiting,
							crowd.serving, crowd.site),
					new Verdict.Model(1, "holder", hold, "busy share / throughput"), Optional.of(crowd.site), readings);
		});
	}

	private static Optional<Crowd> crowdedLock(AtCap at) {
		Optional<ThreadDump> dump = at.last().lastDump();
		if (dump.isEmpty()) {
			return Optional.empty();
		}
		List<DumpedThread> serving = dump.get().matching(ThreadDumps::servesARequest);
		Optional<Map.Entry<String, Long>> crowd = serving.stream()
			.map(DumpedThread::lockTakenIn)
			.flatMap(Optional::stream)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue());
		if (serving.isEmpty() || crowd.isEmpty() || crowd.get().getValue() < 2
				|| crowd.get().getValue() < AnalysisPolicy.LOCK_CROWD * serving.size()) {
			return Optional.empty();
		}
		String site = crowd.get().getKey();
		int dumps = 0;
		int busy = 0;
		for (Step each : at.atCap()) {
			for (ThreadDump taken : each.threads()) {
				dumps++;
				boolean waited = !taken.matching((thread) -> thread.lockTakenIn().filter(site::equals).isPresent())
					.isEmpty();
				boolean held = !taken
					.matching((thread) -> !thread.waitsForLock()
							&& thread.frames().stream().anyMatch((frame) -> frame.equals(site)))
					.isEmpty();
				busy += (waited || held) ? 1 : 0;
			}
		}
		return Optional.of(new Crowd(site, crowd.get().getValue().intValue(), serving.size(), busy, dumps,
				String.valueOf(dump.get().file().getFileName())));
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
					String.format(Locale.ROOT, "%.2f of %s", use.service(), Verdict.count(use.serviceLimit())));
			readings.put("CPU per request", Demands.cpuPerRequest(perRequest, limited.get()));
			if (use.serviceCores() < use.serviceLimit() - 0.005) {
				readings.put("cores it could have",
						String.format(Locale.ROOT,
								"%.2f of its %s: the machine's %s cores were full, %.2f of them with other processes",
								use.serviceCores(), Verdict.count(use.serviceLimit()),
								Verdict.count(use.machineCores()), use.others()));
			}
			return Optional.of(at.capped(Resource.CPU,
					String.format(Locale.ROOT, "the service used %.2f of its %s CPU with %s", use.service(),
							Verdict.count(use.serviceLimit()), AtCap.usersText(limited.get().users())),
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
				String.format(Locale.ROOT, "%.2f of %s", use.machineUsed(), Verdict.count(use.machineCores())));
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
						Verdict.count(use.machineCores()), AtCap.usersText(machine.get().users()), Demands.split(use),
						generatorNote),
				new Verdict.Model(available, "cores", perRequest, "CPU per request"), Optional.of("machine"),
				readings));
	}

	/**
	 * The most other processes took beside the test over the steps at the cap, when at
	 * least {@value AnalysisPolicy#NEIGHBOUR} of a core: a neighbour at the same priority
	 * shares the cores, so the cores it left are no fixed figure.
	 */
	static java.util.OptionalDouble neighbours(AtCap at) {
		java.util.OptionalDouble others = at.atCap()
			.stream()
			.flatMap((step) -> step.cpu().stream())
			.mapToDouble(Step.Cpu::others)
			.max();
		return (others.isPresent() && others.getAsDouble() >= AnalysisPolicy.NEIGHBOUR) ? others
				: java.util.OptionalDouble.empty();
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

	static Optional<Capped> downstream(AtCap at) {
		Optional<DownstreamContainer.InFlight> standIn = at.last()
			.standIn()
			.filter(DownstreamContainer.InFlight::threadsFull);
		if (standIn.isPresent() && at.last().users() > standIn.get().peak()
				&& standIn.get().meanServiceTime().toNanos() > 0) {
			DownstreamContainer.InFlight held = standIn.get();
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream in flight max", held.peak() + " of " + held.threads().getAsInt() + " threads");
			readings.put("downstream completed", Long.toString(held.completed()));
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's %d threads all held a request",
							held.threads().getAsInt()),
					new Verdict.Model(held.threads().getAsInt(), "downstream threads", held.meanServiceTime(),
							"the downstream's hold"),
					Optional.of("downstream"), readings));
		}
		GaugeTimeline gauges = at.last().downstream();
		Optional<Pool> threads = Pool.tomcatThreads(gauges);
		if (threads.isPresent()) {
			Pool pool = threads.get();
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's Tomcat threads %d/%d busy", pool.inUse(),
							pool.limit()),
					new Verdict.Model(pool.limit(), "downstream threads", at.w1(), "W₁"), Optional.of("downstream"),
					pool.readings()));
		}
		Optional<Pool> hikari = Pool.atItsLimit(gauges, Gauge.HIKARI_ACTIVE, Gauge.HIKARI_MAX, Gauge.HIKARI_PENDING);
		if (hikari.isPresent()) {
			Pool pool = hikari.get();
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream's Hikari pool %d/%d active, %d pending", pool.inUse(),
							pool.limit(), pool.pending()),
					new Verdict.Model(pool.limit(), "downstream connections", at.w1(), "W₁"), Optional.of("downstream"),
					pool.readings()));
		}
		Optional<Step> busy = at.atCap()
			.stream()
			.filter((s) -> s.cpu().flatMap(Step.Cpu::downstream).isPresent())
			.filter((s) -> s.cpu().get().downstream().get() >= AnalysisPolicy.CPU_SATURATED
					* s.cpu().get().downstreamLimit())
			.max(Comparator.comparingDouble(Step::throughput));
		if (busy.isPresent()) {
			Step.Cpu use = busy.get().cpu().get();
			double cores = use.downstream().get();
			Duration perRequest = Demands.perRequest(cores, busy.get());
			Map<String, String> readings = new LinkedHashMap<>();
			readings.put("downstream cores used",
					String.format(Locale.ROOT, "%.2f of %s", cores, Verdict.count(use.downstreamLimit())));
			readings.put("downstream CPU per request", Demands.cpuPerRequest(perRequest, busy.get()));
			return Optional.of(at.capped(Resource.DOWNSTREAM,
					String.format(Locale.ROOT, "the downstream used %.2f of its %s CPU", cores,
							Verdict.count(use.downstreamLimit())),
					new Verdict.Model(use.downstreamLimit(), "downstream cores", perRequest, "CPU per request"),
					Optional.of("downstream"), readings));
		}
		return Optional.empty();
	}

}
