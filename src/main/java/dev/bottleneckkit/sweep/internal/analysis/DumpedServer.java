package dev.bottleneckkit.sweep.internal.analysis;

import java.util.function.Function;
import java.util.function.Predicate;

import dev.bottleneckkit.sweep.Resource;
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
 */
public record DumpedServer(Resource resource, Predicate<ThreadDumps.WorkerPool> serves,
		Function<ThreadDumps.WorkerPool, String> words, boolean whereIsThePool) {

}
