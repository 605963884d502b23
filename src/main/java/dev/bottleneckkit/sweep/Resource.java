package dev.bottleneckkit.sweep;

/** What a {@link Verdict.Capped} can name as the cap of a service. */
public enum Resource {

	/**
	 * Apache HttpClient 5's connection pool: every connection of the route leased,
	 * requests waiting for one (from its meters or from where request threads wait).
	 */
	HTTP_CLIENT_POOL("HttpClient connection pool"),

	/**
	 * Hikari's JDBC connection pool: every connection in use, threads waiting for one.
	 */
	HIKARI_POOL("Hikari connection pool"),

	/**
	 * Reactor Netty's connection pool (WebClient): every connection in use, acquisitions
	 * pending.
	 */
	REACTOR_NETTY_POOL("Reactor Netty connection pool"),

	/**
	 * Agroal's JDBC connection pool (Quarkus' datasource): every connection in use,
	 * threads waiting for one.
	 */
	AGROAL_POOL("Agroal connection pool"),

	/**
	 * A client's connection pool of any library, seen from outside: the service's TCP
	 * connections to one destination flat at their number while users doubled.
	 */
	CONNECTION_POOL("connection pool"),

	/**
	 * A bulkhead: every permit of a semaphore held, request threads waiting for one
	 * (Resilience4j's {@code Bulkhead} by its meters or its frames, a
	 * {@code java.util.concurrent.Semaphore} in the team's code by its frames).
	 */
	BULKHEAD("bulkhead"),

	/**
	 * A rate limiter: request threads waiting for a permit of a period to come,
	 * throughput at its permits a period (Resilience4j's {@code RateLimiter}, its rate
	 * read from its configuration).
	 */
	RATE_LIMITER("rate limiter"),

	/**
	 * The service's own thread pool: every thread of an executor running a task while
	 * request threads wait on its work (a fixed pool, Spring's
	 * {@code ThreadPoolTaskExecutor}, a {@code ForkJoinPool}), by its threads' names in
	 * thread dumps.
	 */
	EXECUTOR("the service's own thread pool"),

	/** Tomcat's platform request threads: every one busy. */
	TOMCAT_THREADS("Tomcat request threads"),

	/** Jetty's worker pool: every thread serving a request, none idle. */
	JETTY_THREADS("Jetty request threads"),

	/** Undertow's (XNIO) worker pool: every worker serving a request, none idle. */
	UNDERTOW_THREADS("Undertow worker threads"),

	/**
	 * Quarkus' worker pool ({@code executor-thread-*}), where its blocking routes run:
	 * every thread serving a request, none idle.
	 */
	QUARKUS_WORKER_THREADS("Quarkus worker threads"),

	/**
	 * A reactive server's event loops, Vert.x's (Quarkus, Vert.x) or Reactor Netty's
	 * (Spring WebFlux): every loop busy in a route that blocks it, none back in its
	 * selector.
	 */
	EVENT_LOOPS("event loops"),

	/** The virtual-thread scheduler's carriers, held by pinned virtual threads. */
	CARRIER_THREADS("carrier threads (pinned virtual threads)"),

	/**
	 * CPU: the service's container at its {@code --cpus}, or, without a limit, the
	 * machine's cores, busy with the service and its neighbours.
	 */
	CPU("CPU"),

	/** One lock: one holder at a time, the other request threads blocked on it. */
	LOCK("a lock"),

	/** The downstream service the route calls: its own resource saturated. */
	DOWNSTREAM("the downstream");

	private final String description;

	Resource(String description) {
		this.description = description;
	}

	/** How a person would name it: "Hikari connection pool". */
	public String description() {
		return this.description;
	}

}
