package dev.bottleneckkit.lab.caller;

import java.net.URI;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Knobs of the caller role ({@code lab.caller.*}). Timeouts are Spring Boot's own knobs
 * ({@code spring.http.clients.connect-timeout},
 * {@code spring.http.clients.read-timeout}), threads too
 * ({@code spring.threads.virtual.enabled}, {@code server.tomcat.threads.max}).
 *
 * @param downstreamUrl base URL of the downstream, e.g. {@code http://downstream:8080}
 * @param pool the outbound HTTP connection pool; unset sizes keep Spring Boot's default
 * @param bulkhead a limit on concurrent downstream calls; unset, there is none
 * @param webclient the Reactor Netty pool of the WebClient route
 * ({@code /call/webclient/sleep})
 * @param downstreams more downstreams by name
 * ({@code lab.caller.downstreams.<name>=<url>}), reached through the same client and pool
 * with {@code ?via=<name>}: one route each
 */
@ConfigurationProperties("lab.caller")
public record CallerProperties(@DefaultValue("http://localhost:8080") URI downstreamUrl, @DefaultValue Pool pool,
		@DefaultValue Bulkhead bulkhead, @DefaultValue WebClientPool webclient, Map<String, URI> downstreams) {

	public CallerProperties {
		downstreams = (downstreams != null) ? Map.copyOf(downstreams) : Map.of();
	}

	/** Upper bound for pool sizes: far beyond any load these machines can make. */
	static final int MAX_POOL_SIZE = 10_000;

	/**
	 * Apache HttpClient 5 pool sizes. Left unset, Spring Boot 4 builds the pool with
	 * HttpClient's defaults: 5 connections per route, 25 in total.
	 *
	 * @param maxPerRoute connections to one host:port, 1 to 10 000, or unset
	 * @param maxTotal connections to all routes together, 1 to 10 000, or unset
	 */
	public record Pool(Integer maxPerRoute, Integer maxTotal) {

		public Pool {
			check("lab.caller.pool.max-per-route", maxPerRoute);
			check("lab.caller.pool.max-total", maxTotal);
		}

		private static void check(String knob, Integer size) {
			if (size != null && (size < 1 || size > MAX_POOL_SIZE)) {
				throw new IllegalArgumentException(knob + " must be between 1 and " + MAX_POOL_SIZE + ", was " + size);
			}
		}

	}

	/**
	 * A Resilience4j semaphore bulkhead around the downstream call: at most
	 * {@code maxConcurrentCalls} at once; a call that finds no permit within
	 * {@code maxWait} is rejected with 429 {@code bulkhead-full}.
	 *
	 * @param maxConcurrentCalls permits, 1 to 10 000, or unset for no bulkhead
	 * @param maxWait how long a call may wait for a permit, 0 to 10 min (default 0:
	 * reject at once)
	 */
	public record Bulkhead(Integer maxConcurrentCalls, @DefaultValue("0ms") java.time.Duration maxWait) {

		public Bulkhead {
			if (maxConcurrentCalls != null && (maxConcurrentCalls < 1 || maxConcurrentCalls > MAX_POOL_SIZE)) {
				throw new IllegalArgumentException("lab.caller.bulkhead.max-concurrent-calls must be between 1 and "
						+ MAX_POOL_SIZE + ", was " + maxConcurrentCalls);
			}
			if (maxWait.isNegative() || maxWait.compareTo(java.time.Duration.ofMinutes(10)) > 0) {
				throw new IllegalArgumentException("lab.caller.bulkhead.max-wait must be between 0 ms and 10 min, was "
						+ maxWait.toMillis() + " ms");
			}
		}

	}

	/**
	 * The WebClient's Reactor Netty {@code ConnectionProvider}. Unset values keep Reactor
	 * Netty's defaults (max connections max(CPUs, 8) × 2, pending acquires 2 × max,
	 * pending-acquire timeout 45 s).
	 *
	 * @param maxConnections connections, 1 to 10 000, or unset
	 * @param pendingAcquireMaxCount acquisitions that may wait for a connection, 1 to 100
	 * 000, or unset; one more fails at once with {@code PoolAcquirePendingLimitException}
	 * (503 {@code pool-pending-limit})
	 * @param pendingAcquireTimeout how long an acquisition may wait, 1 ms to 10 min, or
	 * unset; then it fails with {@code PoolAcquireTimeoutException} (503
	 * {@code pool-acquire-timeout})
	 */
	public record WebClientPool(Integer maxConnections, Integer pendingAcquireMaxCount,
			java.time.Duration pendingAcquireTimeout) {

		public WebClientPool {
			if (maxConnections != null && (maxConnections < 1 || maxConnections > MAX_POOL_SIZE)) {
				throw new IllegalArgumentException("lab.caller.webclient.max-connections must be between 1 and "
						+ MAX_POOL_SIZE + ", was " + maxConnections);
			}
			if (pendingAcquireMaxCount != null && (pendingAcquireMaxCount < 1 || pendingAcquireMaxCount > 100_000)) {
				throw new IllegalArgumentException(
						"lab.caller.webclient.pending-acquire-max-count must be between 1 and 100000, was "
								+ pendingAcquireMaxCount);
			}
			if (pendingAcquireTimeout != null && (pendingAcquireTimeout.toMillis() < 1
					|| pendingAcquireTimeout.compareTo(java.time.Duration.ofMinutes(10)) > 0)) {
				throw new IllegalArgumentException(
						"lab.caller.webclient.pending-acquire-timeout must be between 1 ms and " + "10 min, was "
								+ pendingAcquireTimeout.toMillis() + " ms");
			}
		}

	}

}
