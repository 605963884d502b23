package dev.bottleneckkit.sweep.internal.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKind;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;

/**
 * What corroborates a verdict a rule gave: the service's TCP connections flat at its
 * limit beside a pool named from its meters or its frames, or beside a bulkhead, which
 * lets as many calls through as it has permits ({@link ResourceKind#connectionsAgree}).
 */
final class Corroboration {

	private Corroboration() {
	}

	/** {@code verdict}, with the connections that agree with it where there are some. */
	static Capped agreeing(AtCap at, Capped verdict) {
		ResourceKind kind = ResourceKinds.of(verdict.resource());
		if (!kind.connectionsAgree()) {
			return verdict;
		}
		// The pool is named already: connections it kept open from an earlier load (a
		// client's idle connections, alive while the server keeps them) agree as well as
		// connections opened as the users grew.
		Optional<Step.Destination> same = at.flatDestinations(false)
			.stream()
			.filter((destination) -> destination.counted() == (int) verdict.model().limit())
			.findFirst();
		if (same.isEmpty()) {
			return verdict;
		}
		Map<String, String> readings = new LinkedHashMap<>(verdict.readings());
		readings.put("TCP connections", same.get().name() + " flat at " + same.get().counted() + ": agrees");
		// A pool is the pool to that destination, unless its rule said where it is; a
		// bulkhead is not where its calls go.
		Optional<String> where = kind.atItsDestination() ? verdict.where().or(() -> Optional.of(same.get().name()))
				: verdict.where();
		return new Capped(verdict.resource(), verdict.ceilingRps(), verdict.fromUsers(), verdict.saw(), verdict.model(),
				where, readings);
	}

}
