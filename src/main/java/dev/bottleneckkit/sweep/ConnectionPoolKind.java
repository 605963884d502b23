package dev.bottleneckkit.sweep;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.waits.Holding;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;

/**
 * A client's connection pool of any library, seen from outside: request threads waiting
 * on the client while one destination's connections carrying requests stay flat
 * ({@link #heldByConnections}), else the service's TCP connections to one destination
 * flat while users doubled ({@link LimitRules#connectionPool}); asked after every rule
 * that reads a cap upstream of the client.
 */
final class ConnectionPoolKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CONNECTION_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(ConnectionPoolKind::heldByConnections, LimitRules::connectionPool);
	}

	/**
	 * Requests waiting where no thread holds what they wait for (a client's future, whose
	 * answer is a connection's) while one destination's connections carrying requests
	 * stay as many at every step of the cap: those connections are the holders, N / W₁.
	 * Only connections whose bytes moved count ({@link Step.Destination#inUse}): another
	 * client's idle ones are no part of the pool.
	 */
	static Optional<Capped> heldByConnections(AtCap at) {
		int top = at.last().users();
		Optional<SiteReading> site = SiteReading.of(at.readings().steps(), ThreadDumps::servesARequest)
			.stream()
			.filter((reading) -> heldByNoThread(reading, top) && grew(reading, top))
			.max(Comparator.comparingDouble((SiteReading reading) -> reading.waitersAt(top)));
		if (site.isEmpty()) {
			return Optional.empty();
		}
		return at.last()
			.connections()
			.stream()
			.filter((destination) -> destination.inUse().isPresent() && carriedAsMany(at, destination))
			.map((destination) -> {
				int holders = destination.counted();
				Map<String, String> readings = new LinkedHashMap<>();
				for (Step step : at.atCap()) {
					readings.put("waiting and connections carrying requests, " + AtCap.usersText(step.users()),
							String.format(Locale.ROOT, "%.1f waiting, %s", site.get().waitersAt(step.users()),
									step.connections()
										.stream()
										.filter((d) -> d.address().equals(destination.address()))
										.map(Step.Destination::toString)
										.findFirst()
										.orElse("none")));
				}
				String saw = String.format(Locale.ROOT,
						"connection pool to %s: requests wait in %s, %.0f at once: %d holders, connections carrying a"
								+ " request, flat while users doubled",
						destination.name(), site.get().site(), site.get().waitersAt(top), holders);
				return at.capped(Resource.CONNECTION_POOL, saw,
						new Verdict.Model(holders, "connections", at.w1(), "W₁"), Optional.of(destination.name()),
						readings);
			})
			.min(Comparator.comparingDouble(Capped::modelError));
	}

	/**
	 * Whether the site's waiters at the top step wait for something no thread of the
	 * dumps holds: none past them, no worker, no owner.
	 */
	private static boolean heldByNoThread(SiteReading reading, int top) {
		return reading.steps()
			.stream()
			.filter((step) -> step.users() == top)
			.anyMatch((step) -> step.holders() < 1
					|| step.holding().map((holding) -> holding.how() == Holding.How.NOT_IN_THE_DUMP).orElse(false));
	}

	/** Whether the site's waiters at the top step are more than the step before's. */
	private static boolean grew(SiteReading reading, int top) {
		double before = reading.steps()
			.stream()
			.filter((step) -> step.users() < top)
			.max(Comparator.comparingInt(SiteReading.AtStep::users))
			.map(SiteReading.AtStep::waiters)
			.orElse(0.0);
		return reading.waitersAt(top) > before;
	}

	/**
	 * Whether {@code destination}'s connections carrying requests were at least one,
	 * fewer than the users, and within one (or a tenth) of each other at every step of
	 * the cap.
	 */
	private static boolean carriedAsMany(AtCap at, Step.Destination destination) {
		int counted = destination.counted();
		if (counted < 1 || counted >= at.last().users()) {
			return false;
		}
		return at.atCap()
			.stream()
			.allMatch((step) -> step.connections()
				.stream()
				.anyMatch((d) -> d.address().equals(destination.address()) && d.inUse().isPresent()
						&& Math.abs(d.counted() - counted) <= Math.max(1, 0.1 * counted)));
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

}
