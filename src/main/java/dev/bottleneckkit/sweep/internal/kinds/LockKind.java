package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;

/**
 * One lock, one holder at a time, the other request threads blocked on it
 * ({@link #lock}).
 */
public final class LockKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.LOCK;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(LockKind::lock);
	}

	/**
	 * A lock with a crowd of request threads waiting for it in a dump of the last step,
	 * and in how many of the dumps at the cap it was busy.
	 */
	private record Crowd(String site, int waiting, int serving, int busyDumps, int dumps, String file) {
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
		List<DumpedThread> serving = dump.get().matching(ResourceKinds.SERVING::serves);
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

}
