package dev.bottleneckkit.sweep.internal.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * A web server's worker pool as dumps show it: whose pool it is, whether it claims a
 * pool's threads by their name or their frames (the first server of
 * {@link ResourceKinds#ALL} that claims a pool has it, {@link AtCap#serverOf}), what a
 * verdict calls it, and whether its name is where it is (an event loop's: the knob that
 * adds loops is the server's, found by the loops' name).
 *
 * @param resource the resource it is
 * @param serves whether a pool is its, by its own frames or name alone
 * @param words what a verdict calls the pool
 * @param whereIsThePool whether the pool's name is the verdict's where
 */
public record DumpedServer(Resource resource, Predicate<ThreadDumps.WorkerPool> serves,
		Function<ThreadDumps.WorkerPool, String> words, boolean whereIsThePool) {

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
	public Optional<Capped> capped(AtCap at) {
		// Every dump of the steps at the cap, the last first.
		List<ThreadDump> dumps = new ArrayList<>();
		for (int i = at.atCap().size() - 1; i >= 0; i--) {
			dumps.addAll(at.atCap().get(i).threads().reversed());
		}
		Map<String, Integer> sizes = agreedSizes(dumps);
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump)) {
				int busy = pool.serving().size();
				if (pool.idle() > 0 || busy != sizes.getOrDefault(pool.name(), 0) || busy >= at.last().users()
						|| !at.serverOf(pool).filter(this::equals).isPresent()) {
					continue;
				}
				Map<String, String> readings = new LinkedHashMap<>();
				readings.put("pool " + pool.name() + "*",
						busy + " serving, 0 idle (thread dump " + dump.file().getFileName() + ")");
				Optional<String> where = this.whereIsThePool ? Optional.of(pool.name()) : Optional.empty();
				return Optional.of(at.capped(this.resource,
						String.format(Locale.ROOT, "%s (from a thread dump) %d of %d %s* threads serving, none idle",
								this.words.apply(pool), busy, busy, pool.name()),
						new Verdict.Model(busy, "threads", at.w1(), "W₁"), where, readings));
			}
		}
		return Optional.empty();
	}

	/**
	 * Each worker pool's threads serving a request, as most of {@code dumps} with none of
	 * the pool's threads idle agree ({@link ThreadDumps#agreed}).
	 */
	static Map<String, Integer> agreedSizes(List<ThreadDump> dumps) {
		Map<String, Map<Integer, List<ThreadDump>>> dumpsBySize = new LinkedHashMap<>();
		for (ThreadDump dump : dumps) {
			for (ThreadDumps.WorkerPool pool : ThreadDumps.workerPools(dump)) {
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
