package dev.bottleneckkit.lab.caller;

import java.net.URI;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Knobs of the caller role ({@code lab.caller.*}). Timeouts are Spring Boot's own knobs
 * ({@code spring.http.clients.connect-timeout}, {@code spring.http.clients.read-timeout}), threads too
 * ({@code spring.threads.virtual.enabled}, {@code server.tomcat.threads.max}).
 *
 * @param downstreamUrl base URL of the downstream, e.g. {@code http://downstream:8080}
 * @param pool the outbound HTTP connection pool; unset sizes keep Spring Boot's default
 */
@ConfigurationProperties("lab.caller")
public record CallerProperties(@DefaultValue("http://localhost:8080") URI downstreamUrl, @DefaultValue Pool pool) {

	/** Upper bound for pool sizes: far beyond any load these machines can make. */
	static final int MAX_POOL_SIZE = 10_000;

	/**
	 * Apache HttpClient 5 pool sizes. Left unset, Spring Boot 4 builds the pool with HttpClient's defaults:
	 * 5 connections per route, 25 in total.
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

}
