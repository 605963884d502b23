package dev.bottleneckkit.sweep;

/** What a {@link Sweep}'s verdict can name as the cap of a service. */
public enum Resource {

	/**
	 * Apache HttpClient 5's connection pool: every connection of the route leased,
	 * requests pending for one.
	 */
	HTTP_CLIENT_POOL("HttpClient connection pool"),

	/** Tomcat's platform request threads: every one busy. */
	TOMCAT_THREADS("Tomcat request threads"),

	/**
	 * Hikari's JDBC connection pool: every connection in use, threads pending for one.
	 */
	HIKARI_POOL("Hikari connection pool"),

	/**
	 * Reactor Netty's connection pool (WebClient): every connection in use, acquisitions
	 * pending.
	 */
	REACTOR_NETTY_POOL("Reactor Netty connection pool"),

	/** The virtual-thread scheduler's carriers, held by pinned virtual threads. */
	CARRIER_THREADS("carrier threads (pinned virtual threads)"),

	/** The CPU the service's container may use: busy to its limit. */
	CPU("CPU"),

	/** One lock: most request threads parked waiting for it. */
	LOCK("a lock"),

	/** The downstream service the route calls: its own resource saturated. */
	DOWNSTREAM("the downstream"),

	/** The load generator itself: it could not send faster. */
	LOAD_GENERATOR("the load generator"),

	/** Throughput still rose with every doubling of users: no cap within the sweep. */
	NONE("no cap"),

	/** Throughput stopped rising, and no probe explains why: nothing is guessed. */
	UNEXPLAINED("unexplained");

	private final String description;

	Resource(String description) {
		this.description = description;
	}

	/** How a person would name it: "Hikari connection pool". */
	public String description() {
		return this.description;
	}

}
