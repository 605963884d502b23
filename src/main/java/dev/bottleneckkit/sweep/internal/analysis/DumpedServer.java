package dev.bottleneckkit.sweep.internal.analysis;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * A web server's worker pool as dumps show it: whose pool it is, whether it claims a
 * pool's threads by their name or their frames (the first server of
 * {@code ResourceKinds.ALL} that claims a pool has it, {@link AtCap#serverOf}), what a
 * verdict calls it, and whether its name is where it is (an event loop's: the knob that
 * adds loops is the server's, found by the loops' name).
 *
 * @param resource the resource it is
 * @param serves whether a pool is its, by its own frames or name alone
 * @param words what a verdict calls the pool
 * @param whereIsThePool whether the pool's name is the verdict's where
 * @param requestFrames frames of its threads serving a request
 * @param idleFrames frames of its workers idle in their pool
 */
public record DumpedServer(Resource resource, Predicate<ThreadDumps.WorkerPool> serves,
		Function<ThreadDumps.WorkerPool, String> words, boolean whereIsThePool, List<String> requestFrames,
		List<String> idleFrames) {

	public DumpedServer {
		requestFrames = List.copyOf(requestFrames);
		idleFrames = List.copyOf(idleFrames);
	}

	/** What a request thread is by all of {@code servers}' frames. */
	public static Serving serving(List<DumpedServer> servers) {
		return new Serving(servers.stream().flatMap((server) -> server.requestFrames().stream()).distinct().toList(),
				servers.stream().flatMap((server) -> server.idleFrames().stream()).distinct().toList());
	}

}
