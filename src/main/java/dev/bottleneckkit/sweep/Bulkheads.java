package dev.bottleneckkit.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A bulkhead at its limit: every permit of a semaphore held while request threads wait
 * for one. The seeds' fix for the bulkhead virtual threads take away is one, so once a
 * team has added it, it is what caps the service. Resilience4j's {@code Bulkhead} or a
 * plain {@code java.util.concurrent.Semaphore} in the team's code: where request threads
 * wait for it is in the dumps ({@link Upstream#PERMITS}). Its permits are read from
 * Resilience4j's meters where Actuator publishes them, else from the same dumps: the
 * request threads inside the team's code the waiters wait in, past the permit, in the
 * median dump. Its model is Little's law, permits / W₁: a request holds its permit at
 * most its whole latency.
 */
final class Bulkheads {

	private Bulkheads() {
	}

	/** The bulkhead the steps at the cap wait in, when most of their dumps show one. */
	static Optional<Capped> bulkhead(AtCap at) {
		List<Read> reads = new ArrayList<>();
		for (AtCap.DumpWaits dump : at.waits()) {
			read(dump).ifPresent(reads::add);
		}
		int dumps = at.waits().size();
		if (!at.inMostDumps(reads.size())) {
			return Optional.empty();
		}
		Upstream.Wait wait = mostCommon(reads);
		List<Read> same = reads.stream()
			.filter((read) -> read.queue().what().equals(wait.what()) && read.queue().where().equals(wait.where()))
			.toList();
		int waiting = same.stream().mapToInt((read) -> read.queue().threads()).max().orElse(0);
		int holding = median(same.stream().map(Read::holding).toList());
		GaugeTimeline meters = at.last().service();
		OptionalDouble permits = meters.max(Gauge.BULKHEAD_MAX);
		Map<String, String> readings = new LinkedHashMap<>();
		int limit;
		int held;
		// Resilience4j's meters count its bulkheads' permits, not a semaphore's of the
		// team's own beside them.
		// They are read without a bulkhead's name, summed over a service's bulkheads: a
		// full bulkhead beside an idle one never reads all the permits held, and its
		// permits are counted in the dumps instead.
		boolean metered = wait.what().equals(Upstream.RESILIENCE4J_BULKHEAD.what());
		int meteredLimit = (int) Math.round(permits.orElse(0));
		int meteredHeld = meteredLimit - (int) Math.round(meters.min(Gauge.BULKHEAD_AVAILABLE).orElse(meteredLimit));
		if (metered && meteredLimit >= 1 && meteredHeld == meteredLimit) {
			limit = meteredLimit;
			held = meteredHeld;
			readings.put("permits", String.format(Locale.ROOT,
					"%d from Resilience4j's meters (resilience4j.bulkhead.*), %d held at most", limit, held));
		}
		else {
			limit = holding;
			held = holding;
			String meterless = !metered || meteredLimit < 1 ? "no bulkhead meters read"
					: String.format(Locale.ROOT,
							"Resilience4j's meters read %d permits, %d held at most: the sum of its bulkheads",
							meteredLimit, meteredHeld);
			readings.put("permits",
					String.format(Locale.ROOT,
							"%d request threads past the permit in %s in the median of %d dumps (%s)", holding,
							wait.where(), same.size(), meterless));
		}
		if (limit < 1) {
			return Optional.empty();
		}
		readings.put("waiting", String.format(Locale.ROOT, "%d request threads for %s, at most, in %d of %d dumps",
				waiting, wait.what(), same.size(), dumps));
		return Optional.of(at.capped(Resource.BULKHEAD,
				String.format(Locale.ROOT, "%s in %s: %d/%d permits held, %d request threads waiting", wait.what(),
						wait.where(), held, limit, waiting),
				new Verdict.Model(limit, "permits", at.w1(), "W₁"), Optional.empty(), readings));
	}

	/**
	 * The wait for permits most request threads of {@code dump} are in, and the request
	 * threads inside the same code of the team's that are past it: they hold the permits.
	 */
	static Optional<Read> read(AtCap.DumpWaits dump) {
		return dump.first(Upstream.Kind.PERMITS)
			.map((waited) -> new Read(waited,
					(int) dump.dump()
						.matching((thread) -> ThreadDumps.servesARequest(thread) && thread.hasFrame(waited.where())
								&& !waitsForAPermit(thread))
						.size()));
	}

	private static boolean waitsForAPermit(DumpedThread thread) {
		return Upstream.PERMITS.stream().anyMatch((permit) -> thread.hasFrame(permit.frame()));
	}

	/**
	 * One dump's bulkhead: the wait and how many request threads held a permit.
	 *
	 * @param queue the request threads waiting for a permit, and where
	 * @param holding the request threads past the permit in the same code
	 */
	record Read(Upstream.Wait queue, int holding) {

	}

	/** The wait most dumps show: the same thing waited for, in the same code. */
	private static Upstream.Wait mostCommon(List<Read> reads) {
		Map<List<String>, List<Read>> byKey = reads.stream()
			.collect(Collectors.groupingBy((read) -> List.of(read.queue().what(), read.queue().where()),
					LinkedHashMap::new, Collectors.toList()));
		return byKey.values().stream().max(Comparator.comparingInt(List<Read>::size)).orElseThrow().get(0).queue();
	}

	/** The median, the lower of the two middle ones for an even count. */
	private static int median(List<Integer> values) {
		List<Integer> sorted = values.stream().sorted().toList();
		return sorted.get((sorted.size() - 1) / 2);
	}

}
