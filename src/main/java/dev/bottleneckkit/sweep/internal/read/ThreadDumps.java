package dev.bottleneckkit.sweep.internal.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.analysis.Pool;

/**
 * What a service's thread dumps say of its pools and worker threads: which threads serve
 * a request, how many wait for a pooled connection or hold one (by the frames a kind
 * gives, {@link dev.bottleneckkit.sweep.internal.analysis.DumpedPool}), and which web
 * server's worker pool has none idle.
 */
public final class ThreadDumps {

	/**
	 * A pool read from the steps' thread dumps: its limit is the number of request
	 * threads holding a connection that most dumps agree on, among the dumps where others
	 * waited for one (the pool full), the larger on a tie; the last step's dumps must
	 * show some waiting. A dump is taken thread by thread, not at one instant: a
	 * connection handed on while it is written can be counted twice (its old holder
	 * before, its new one after) or not at all, and a thread taking or handing back a
	 * connection is no holder. The most of several dumps would keep such a miscount; what
	 * most of them say does not (the sweep takes three dumps in a step whose first shows
	 * a pool's waiters). Empty when no dump shows the pool full.
	 */
	public static Optional<Pool> pooledFromDump(List<Step> steps, Step last, List<String> waitingFrames,
			List<String> holdingFrames, List<String> passingFrames, Serving serving) {
		Map<Integer, List<String>> dumpsByHolders = new TreeMap<>();
		int pending = 0;
		boolean lastWaits = false;
		for (Step each : steps) {
			for (ThreadDump dump : each.threads()) {
				int waiting = waiting(dump, waitingFrames, serving);
				int holding = (int) dump.matching(serving::serves)
					.stream()
					.filter((thread) -> passingFrames.stream().noneMatch(thread::hasFrame))
					.filter((thread) -> holdingFrames.stream().anyMatch(thread::hasFrame))
					.count();
				if (waiting < 1 || holding < 1) {
					continue;
				}
				lastWaits |= each == last;
				dumpsByHolders.computeIfAbsent(holding, (count) -> new ArrayList<>())
					.add(String.valueOf(dump.file().getFileName()));
				pending = Math.max(pending, waiting);
			}
		}
		if (!lastWaits) {
			return Optional.empty();
		}
		Map.Entry<Integer, List<String>> agreed = agreed(dumpsByHolders).orElseThrow();
		int full = dumpsByHolders.values().stream().mapToInt(List::size).sum();
		String counted = String.format(Locale.ROOT, "%d in %d of %d dumps with waiters%s (e.g. %s)", agreed.getKey(),
				agreed.getValue().size(), full, seenOtherwise(dumpsByHolders, agreed.getKey()),
				agreed.getValue().get(0));
		return Optional.of(new Pool("request threads holding a connection", agreed.getKey(), agreed.getKey(), pending,
				Map.of("holders by thread dump", counted)));
	}

	/** "; 6 in 1" when dumps with waiters counted other numbers of holders. */
	/**
	 * Of the counts dumps read (each count with the dumps that read it), the one most of
	 * them read, the larger on a tie: a dump is taken thread by thread, and what one dump
	 * miscounts the others outvote. Empty without a dump.
	 */
	public static <T> Optional<Map.Entry<Integer, List<T>>> agreed(Map<Integer, List<T>> dumpsByCount) {
		return dumpsByCount.entrySet()
			.stream()
			.max(Comparator.<Map.Entry<Integer, List<T>>>comparingInt((entry) -> entry.getValue().size())
				.thenComparing(Map.Entry::getKey));
	}

	private static String seenOtherwise(Map<Integer, List<String>> dumpsByHolders, int agreed) {
		String others = dumpsByHolders.entrySet()
			.stream()
			.filter((entry) -> entry.getKey() != agreed)
			.map((entry) -> entry.getKey() + " in " + entry.getValue().size())
			.collect(Collectors.joining(", "));
		return others.isEmpty() ? "" : "; " + others;
	}

	/** The request threads of {@code dump} with every one of {@code waitingFrames}. */
	public static int waiting(ThreadDump dump, List<String> waitingFrames, Serving serving) {
		return dump.matching((thread) -> serving.serves(thread) && waitingFrames.stream().allMatch(thread::hasFrame))
			.size();
	}

	/**
	 * Whether a web server's worker pool in {@code dump} has every thread serving and
	 * none idle: its size is the most threads seen serving at once, and a dump taken
	 * thread by thread can catch one of them between two requests, so it takes more than
	 * one dump to count it.
	 */
	public static boolean showsABusyWorkerPool(ThreadDump dump, Serving serving) {
		return workerPools(dump, serving).stream().anyMatch((pool) -> pool.idle() == 0);
	}

	/**
	 * A web server's worker pool as one dump shows it: its name without the thread
	 * number, its threads serving a request and how many of its threads wait idle in its
	 * queue.
	 */
	public record WorkerPool(String name, List<DumpedThread> serving, long idle) {

	}

	/** The worker pools of {@code dump} with at least one thread serving a request. */
	public static List<WorkerPool> workerPools(ThreadDump dump, Serving requests) {
		Map<String, List<DumpedThread>> serving = dump.matching(requests::serves)
			.stream()
			.filter((thread) -> !poolOf(thread).isEmpty())
			.collect(Collectors.groupingBy(ThreadDumps::poolOf, LinkedHashMap::new, Collectors.toList()));
		return serving.entrySet()
			.stream()
			.map((pool) -> new WorkerPool(pool.getKey(), pool.getValue(),
					dump.matching((thread) -> poolOf(thread).equals(pool.getKey()) && requests.idle(thread)).size()))
			.toList();
	}

	/**
	 * The pool a platform thread belongs to by its name without its number
	 * ({@code http-nio-8080-exec-7} → {@code http-nio-8080-exec-}); empty for a virtual
	 * or unnamed thread.
	 */
	public static String poolOf(DumpedThread thread) {
		String name = thread.name();
		if (thread.virtual() || name.isEmpty() || !Character.isDigit(name.charAt(name.length() - 1))) {
			return "";
		}
		int end = name.length();
		while (end > 0 && Character.isDigit(name.charAt(end - 1))) {
			end--;
		}
		return name.substring(0, end);
	}

	private ThreadDumps() {
	}

}
