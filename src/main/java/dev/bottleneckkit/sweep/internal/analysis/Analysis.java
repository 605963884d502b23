package dev.bottleneckkit.sweep.internal.analysis;

import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.sweep.Scalability;
import dev.bottleneckkit.sweep.Verdict;

/**
 * What the analysis concluded from a sweep's readings, all at once: the verdict, each
 * resource's own ceiling, what caps next, and the scalability curve.
 *
 * @param verdict the resource that caps the service, or why none is named
 * @param bounds each resource's own ceiling as the steps read it, lowest first
 * @param nextCap the lowest ceiling above the measured one other than the verdict's
 * @param scalability the Universal Scalability Law fitted to the steps, with three or
 * more
 */
public record Analysis(Verdict verdict, List<Verdict.Bound> bounds, Optional<Verdict.Bound> nextCap,
		Optional<Scalability> scalability) {

	public Analysis {
		bounds = List.copyOf(bounds);
	}

}
