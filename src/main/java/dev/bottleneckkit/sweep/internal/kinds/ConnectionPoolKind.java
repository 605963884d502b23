package dev.bottleneckkit.sweep.internal.kinds;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.waits.Holding;
import dev.bottleneckkit.sweep.internal.waits.Refusal;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * A client's connection pool of any library, seen from outside: request threads waiting
 * on the client while one destination's connections carrying requests stay flat
 * ({@link #heldByConnections}), else the service's TCP connections to one destination
 * flat while users doubled ({@link #flatConnections}); asked after every rule that reads
 * a cap upstream of the client. A count of connections agrees with Little's law whatever
 * limited it (a dispatcher, a bulkhead that refuses, pinned carriers all let as many
 * calls through as there are connections), so it names the pool only where the dumps show
 * the connections holding the wait: requests waiting on a client's answer no thread of
 * the service holds, no thread per call. Not where the steps at the cap turn requests
 * away: a pool makes them wait.
 */
public final class ConnectionPoolKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.CONNECTION_POOL;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(ConnectionPoolKind::heldByConnections, ConnectionPoolKind::flatConnections);
	}

	/**
	 * Requests waiting where no thread holds what they wait for (a client's future, whose
	 * answer is a connection's) while one destination's connections carrying requests
	 * stay as many at every step of the cap: those connections are the holders, N / W₁.
	 * Only connections whose bytes moved count ({@link Step.Destination#inUse}): another
	 * client's idle ones are no part of the pool.
	 */
	static Optional<Capped> heldByConnections(AtCap at) {
		if (refusing(at)) {
			return Optional.empty();
		}
		int top = at.last().users();
		Optional<SiteReading> site = SiteReading.of(at.readings().steps(), ResourceKinds.SERVING::serves)
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

	/**
	 * Whether most dumps of the steps at the cap show request threads waiting where no
	 * thread of the service holds what they wait for, a client's future, latch or
	 * condition: the connections hold it, no thread per call.
	 */
	private static boolean waitOnTheirAnswers(AtCap at) {
		long showing = at.waits()
			.stream()
			.filter((dump) -> Holding.in(dump.dump(), ResourceKinds.SERVING::serves)
				.stream()
				.anyMatch((held) -> !held.waiters().isEmpty() && held.how() == Holding.How.NOT_IN_THE_DUMP
						&& held.site().primitive().heldByAThread()))
			.count();
		return at.inMostDumps((int) showing);
	}

	/**
	 * Whether the top step turned requests away: a tenth of its answers failed, or more.
	 */
	private static boolean refusing(AtCap at) {
		long completed = at.last().result().completed();
		return completed > 0 && at.last().result().errorCount() >= Refusal.REFUSED_SHARE * completed;
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	/**
	 * A client pool of any library, from the service's TCP connections: the connections
	 * to one destination opened as the users grew, then held flat at N through the steps
	 * at the cap while their users doubled past N, so requests waited for them. Its model
	 * is N / W₁ (a request holds a connection at most its whole latency). Of several such
	 * destinations, the one whose model lies nearest the ceiling. None when the dumps
	 * show request threads waiting before the client ({@link Upstream}): a bulkhead, a
	 * rate limiter or a busy executor lets through as many calls as there are
	 * connections, and the connections follow that cap. None either unless most dumps at
	 * the cap show request threads waiting on an answer no thread of the service holds
	 * ({@link #waitOnTheirAnswers}): without dumps the connections are what was seen, not
	 * a name.
	 */
	static Optional<Capped> flatConnections(AtCap at) {
		if (at.upstream().isPresent() || refusing(at) || !waitOnTheirAnswers(at)) {
			return Optional.empty();
		}
		return at.flatDestinations(true).stream().map((destination) -> {
			Map<String, String> readings = new LinkedHashMap<>();
			String carried = destination.inUse().isPresent() ? " carrying requests" : "";
			readings.put("connections to " + destination.name(),
					destination.counted() + carried + " in every step of the last " + at.atCap().size() + " ("
							+ destination.readings() + " readings in the last)");
			readings.put("users of the last step", Integer.toString(at.last().users()));
			return at.capped(Resource.CONNECTION_POOL,
					String.format(Locale.ROOT,
							"connection pool to %s: %d connections%s (TCP), flat while users doubled",
							destination.name(), destination.counted(), carried),
					new Verdict.Model(destination.counted(), "connections", at.w1(), "W₁"),
					Optional.of(destination.name()), readings);
		}).min(Comparator.comparingDouble(Capped::modelError));
	}

}
