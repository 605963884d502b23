package dev.bottleneckkit.sweep.internal.analysis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * A library's pool read from thread dumps where its meters are not published: what a
 * verdict calls it and where its waiters wait, its frames
 * ({@link ThreadDumps#pooledFromDump}), and which meters would have shown it and why they
 * were not there. A kind declares its own; the reading names no library.
 *
 * @param resource the resource it is
 * @param name what a verdict calls it: {@code Hikari pool}
 * @param waitsIn where its waiters wait, in words: {@code its borrow}
 * @param waiting frames of a request thread waiting for one (all of them)
 * @param holding frames of a request thread holding one (any of them)
 * @param passing frames of a request thread taking or handing one back (any of them): no
 * holder at that instant
 * @param meters the meters that would have shown it, in words
 * @param meterNames their names
 * @param why why they were not read
 */
public record DumpedPool(Resource resource, String name, String waitsIn, List<String> waiting, List<String> holding,
		List<String> passing, String meters, String meterNames, String why) {

	/** It at its limit by what most of the steps' dumps say, modelled at W₁. */
	public Optional<Capped> capped(AtCap at) {
		return ThreadDumps
			.pooledFromDump(at.readings().steps(), at.last(), this.waiting, this.holding, this.passing, at.serving())
			.map((read) -> at.capped(this.resource,
					String.format(Locale.ROOT,
							"%s (from a thread dump) %d request threads hold a connection, %d wait in %s", this.name,
							read.inUse(), read.pending(), this.waitsIn),
					new Verdict.Model(read.limit(), "connections", at.w1(), "W₁"), Optional.empty(),
					withoutMeters(at, read.readings())));
	}

	/**
	 * Whether request threads in {@code dump}, as {@code serving} tells them, wait for
	 * it: the pool is full, and counting its holders takes more than one dump.
	 */
	public boolean waitsIn(ThreadDump dump, Serving serving) {
		return ThreadDumps.waiting(dump, this.waiting, serving) > 0;
	}

	/**
	 * A pool's readings from thread dumps, with why its meters were not read and what
	 * that costs the model: its hold is W₁, the request's latency at one user, where the
	 * pool's own meters would give how long a use holds a connection (a connection held
	 * for part of a request only makes a W₁ model read low).
	 */
	private Map<String, String> withoutMeters(AtCap at, Map<String, String> readings) {
		Map<String, String> all = new LinkedHashMap<>(readings);
		all.put("meters",
				at.readings()
					.meters()
					.map((where) -> this.meters + " (" + this.meterNames + ") absent from " + where + ": " + this.why)
					.orElse("none read (see blind)") + "; the hold is W₁, the request's latency, not a use's");
		return all;
	}

}
