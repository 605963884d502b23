package dev.bottleneckkit.sweep.internal.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * A web server's worker pool full, read from thread dumps ({@link DumpedServer}): the
 * rule each server kind names its pool by when no meter of the pool was read.
 */
public final class ServerFull {

	private ServerFull() {
	}

	/**
	 * Its worker pool full, from thread dumps (Tomcat without its MBean registry, Jetty,
	 * Undertow, Quarkus' workers, event loops): in a dump of the last step every thread
	 * of the pool (by name, {@code http-nio-8080-exec-}, {@code qtp…-}, {@code XNIO-1
	 * task-}) that is not accepting or selecting serves a request and none is idle in the
	 * pool's queue, the pool its own ({@link AtCap#serverOf}). Its size is what most
	 * dumps at the cap with none idle agree on, the larger on a tie: a dump is taken
	 * thread by thread, and a request handed from one thread to the next while it is
	 * written can be counted twice (a pool of 6 read as 7), or a worker between two
	 * requests not at all.
	 */
	public static Optional<Capped> capped(DumpedServer server, AtCap at) {
		// Every dump of the steps at the cap, the last first.
		List<ThreadDump> dumps = new ArrayList<>();
		for (int i = at.atCap().size() - 1; i >= 0; i--) {
			dumps.addAll(at.atCap().get(i).threads().reversed());
		}
		Map<String, Integer> sizes = agreedSizes(dumps, at.serving());
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump, at.serving())) {
				int busy = pool.serving().size();
				if (pool.idle() > 0 || busy != sizes.getOrDefault(pool.name(), 0) || busy >= at.last().users()
						|| !at.serverOf(pool).filter(server::equals).isPresent()) {
					continue;
				}
				Map<String, String> readings = new LinkedHashMap<>();
				readings.put("pool " + pool.name() + "*",
						busy + " serving, 0 idle (thread dump " + dump.file().getFileName() + ")");
				Optional<String> where = server.whereIsThePool() ? Optional.of(pool.name()) : Optional.empty();
				return Optional.of(at.capped(server.resource(),
						String.format(Locale.ROOT, "%s (from a thread dump) %d of %d %s* threads serving, none idle",
								server.words().apply(pool), busy, busy, pool.name()),
						new Verdict.Model(busy, "threads", at.w1(), "W₁"), where, readings));
			}
		}
		return Optional.empty();
	}

	/**
	 * Each worker pool's threads serving a request, as {@code serving} tells them and as
	 * most of {@code dumps} with none of the pool's threads idle agree
	 * ({@link ThreadDumps#agreed}).
	 */
	static Map<String, Integer> agreedSizes(List<ThreadDump> dumps, Serving serving) {
		Map<String, Map<Integer, List<ThreadDump>>> dumpsBySize = new LinkedHashMap<>();
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump, serving)) {
				if (pool.idle() == 0) {
					dumpsBySize.computeIfAbsent(pool.name(), (name) -> new TreeMap<>())
						.computeIfAbsent(pool.serving().size(), (size) -> new ArrayList<>())
						.add(dump);
				}
			}
		}
		Map<String, Integer> sizes = new LinkedHashMap<>();
		dumpsBySize.forEach(
				(name, bySize) -> ThreadDumps.agreed(bySize).ifPresent((agreed) -> sizes.put(name, agreed.getKey())));
		return sizes;
	}

}
