package dev.bottleneckkit.sweep.internal.analysis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;
import dev.bottleneckkit.sweep.internal.run.Readings;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * What the rules read at a sweep's cap: its last step, the steps from the knee on, the
 * ceiling, the knee's users and W₁, all from one {@link Readings}.
 *
 * @param readings what the sweep measured
 * @param last the last step: the most users
 * @param atCap the knee's step and those after it
 * @param ceiling the highest throughput of any step
 * @param kneeUsers the users of the knee (of the last step without one)
 * @param w1 the route's mean latency with one user
 * @param waits each dump of the steps at the cap with what its request threads wait for
 * before any client ({@link Upstream#waits}), read once for every rule that asks
 * @param own the resources of the team's own the test declared
 * @param servers the web servers whose worker pools dumps show, each pool the first's
 * that claims it
 */
public record AtCap(Readings readings, Step last, List<Step> atCap, double ceiling, int kneeUsers, Duration w1,
		List<DumpWaits> waits, List<Resource.Own> own, List<DumpedServer> servers) {

	public AtCap {
		atCap = List.copyOf(atCap);
		waits = List.copyOf(waits);
		own = List.copyOf(own);
		servers = List.copyOf(servers);
	}

	static AtCap of(Readings readings, List<Resource.Own> own, List<DumpedServer> servers,
			List<Upstream.Permit> permits) {
		Step last = readings.last();
		int kneeUsers = readings.knee().map(Step::users).orElse(last.users());
		List<Step> atCap = readings.steps().stream().filter((s) -> s.users() >= kneeUsers).toList();
		List<DumpWaits> waits = atCap.stream()
			.flatMap((step) -> step.threads().stream())
			.map((dump) -> new DumpWaits(dump, Upstream.waits(dump, permits, DumpedServer.serving(servers))))
			.toList();
		return new AtCap(readings, last, atCap, readings.ceiling(), kneeUsers, readings.oneUserLatency(), waits, own,
				servers);
	}

	/** What a request thread is, by the servers' frames. */
	public Serving serving() {
		return DumpedServer.serving(this.servers);
	}

	/** The server whose worker pool {@code pool} is: the first that claims it. */
	public Optional<DumpedServer> serverOf(ThreadDumps.WorkerPool pool) {
		return this.servers.stream().filter((server) -> server.serves().test(pool)).findFirst();
	}

	/**
	 * What the steps at the cap show request threads waiting for before any client, in
	 * one line ({@link Upstream#atCap}).
	 */
	public Optional<String> upstream() {
		return Upstream.atCap(this.waits.stream().map(DumpWaits::waits).toList());
	}

	/**
	 * Whether {@code dumps} of the dumps at the cap are most of them (at least half):
	 * what a wait must show to name a resource.
	 */
	public boolean inMostDumps(int dumps) {
		return dumps > 0 && 2 * dumps >= this.waits.size();
	}

	/**
	 * One dump of a step at the cap and the waits before any client it shows, the most
	 * waited first.
	 */
	public record DumpWaits(ThreadDump dump, List<Upstream.Wait> waits) {

		public DumpWaits {
			waits = List.copyOf(waits);
		}

	}

	/**
	 * A verdict naming {@code resource} at this ceiling from the knee's users, the hold
	 * its model used among its readings.
	 */
	public Capped capped(Resource resource, String saw, Verdict.Model model, Optional<String> where,
			Map<String, String> readings) {
		Map<String, String> all = new LinkedHashMap<>(readings);
		all.put("W (" + model.holdIs() + ")", String.format(Locale.ROOT, "%.1f ms", model.hold().toNanos() / 1e6));
		return new Capped(resource, this.ceiling, this.kneeUsers, saw, model, where, all);
	}

	/** "1 user", "8 users". */
	public static String usersText(int users) {
		return (users == 1) ? "1 user" : users + " users";
	}

	/**
	 * Destinations whose connections stayed at one number N ≥ 1 in every reading of the
	 * steps at the cap, fewer than the last step's users; {@code grown}, only those
	 * opened as the users grew below the knee. Where the reader saw the connections'
	 * bytes, only those that carried a request count ({@link Step.Destination#counted}):
	 * an idle keep-alive connection, another client's, is no evidence of a pool.
	 */
	public List<Step.Destination> flatDestinations(boolean grown) {
		if (this.atCap.size() < 2 || this.atCap.stream().anyMatch((s) -> s.connections().isEmpty())) {
			return List.of();
		}
		List<Step.Destination> flat = new ArrayList<>();
		for (Step.Destination last : this.last.connections()) {
			// Opened as the load grew, then flat: a pool kept full while idle (Hikari's
			// minimumIdle) is flat from the first step and says nothing of the load.
			boolean grew = this.readings.steps()
				.stream()
				.filter((s) -> s.users() < this.kneeUsers)
				.filter((s) -> !s.connections().isEmpty())
				.anyMatch((s) -> s.connections()
					.stream()
					.noneMatch((d) -> d.address().equals(last.address()) && d.counted() >= last.counted()));
			boolean steady = (grew || !grown) && last.readings() >= 2 && flat(last) && last.counted() >= 1
					&& last.counted() < this.last.users();
			for (Step each : this.atCap) {
				steady &= each.connections()
					.stream()
					.anyMatch((d) -> d.address().equals(last.address()) && flat(d) && d.counted() == last.counted());
			}
			if (steady) {
				flat.add(last);
			}
		}
		return flat;
	}

	/**
	 * Whether a destination's count held within the step: its connections in use are one
	 * count a step; established ones must be as many in every reading.
	 */
	private static boolean flat(Step.Destination destination) {
		return destination.inUse().isPresent() || destination.min() == destination.max();
	}

	/**
	 * The most other processes took beside the test over the steps at the cap, when at
	 * least {@value AnalysisPolicy#NEIGHBOUR} of a core: a neighbour at the same priority
	 * shares the cores, so the cores it left are no fixed figure.
	 */
	public OptionalDouble neighbours() {
		OptionalDouble others = this.atCap.stream()
			.flatMap((step) -> step.cpu().stream())
			.mapToDouble(Step.Cpu::others)
			.max();
		return (others.isPresent() && others.getAsDouble() >= AnalysisPolicy.NEIGHBOUR) ? others
				: OptionalDouble.empty();
	}

}
