package dev.bottleneckkit.model;

import java.time.Duration;
import java.util.Locale;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.load.LoadResult;

/**
 * Little's law applied to one limited resource: a resource that serves at most
 * {@code limit} requests at once, each holding it for {@code latency}, caps throughput at
 * λ = L / W = limit / latency.
 *
 * <p>
 * For a closed-loop load of {@code users} (each sends its next request when the last one
 * answers) the model predicts both sides of the law: throughput
 * {@code min(users, limit) / latency}, and the latency a user sees,
 * {@code users / throughput}, which grows past {@code latency} as soon as requests queue
 * for the resource.
 *
 * @param limit how many requests the resource serves at once (connections, threads,
 * carriers); 1 to 100 000
 * @param resource what the limit counts, for messages: "connections per route", "carrier
 * threads"
 * @param latency how long one request holds the resource; 1 ms to 10 min
 */
public record Ceiling(int limit, String resource, Duration latency) {

	public Ceiling {
		Knobs.between("limit", limit, 1, 100_000);
		Knobs.between("latency", latency, Duration.ofMillis(1), Duration.ofMinutes(10));
		if (resource == null || resource.isBlank()) {
			throw new IllegalArgumentException("resource must name what the limit counts, was '" + resource + "'");
		}
	}

	/** A resource of {@code limit} units, each busy for {@code latency} per request. */
	public static Ceiling of(int limit, String resource, Duration latency) {
		return new Ceiling(limit, resource, latency);
	}

	/** λ = L / W: the most requests per second the resource can complete. */
	public double requestsPerSecond() {
		return this.limit / seconds(this.latency);
	}

	/** Throughput a closed loop of {@code users} reaches: min(users, limit) / latency. */
	public double throughputFor(int users) {
		Knobs.between("users", users, 1, 1_000_000);
		return Math.min(users, this.limit) / seconds(this.latency);
	}

	/**
	 * Throughput the ceiling allows the load that produced {@code result}: for a closed
	 * loop, {@link #throughputFor(int) throughputFor(users)}; for an open loop, the
	 * offered rate or the ceiling, whichever is lower.
	 */
	public double throughputFor(LoadResult result) {
		return result.offeredRps().isPresent()
				? Math.min(result.offeredRps().getAsDouble(), throughputFor(result.users()))
				: throughputFor(result.users());
	}

	/**
	 * Latency a closed loop of {@code users} sees: W = L / λ, never below the resource's
	 * own latency.
	 */
	public Duration latencyFor(int users) {
		double seconds = users / throughputFor(users);
		return Duration.ofNanos(Math.round(Math.max(seconds, seconds(this.latency)) * 1e9));
	}

	/**
	 * True when {@code users} are more than the resource serves at once, so requests
	 * queue for it.
	 */
	public boolean saturatedBy(int users) {
		return users > this.limit;
	}

	/** "5 connections per route / 0.500 s = 10.0 rps" */
	public String explain() {
		return String.format(Locale.ROOT, "%d %s / %.3f s = %.1f rps", this.limit, this.resource, seconds(this.latency),
				requestsPerSecond());
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}

}
