package dev.bottleneckkit.probe;

import java.util.List;

/**
 * A Micrometer meter to sample through Actuator, e.g.
 * {@code hikaricp.connections.pending}. The well-known ones that cap a Spring Boot
 * service are constants here; {@link #of} names any other.
 *
 * @param label the name the timeline uses
 * @param meter the Micrometer meter name
 * @param tags tag filters as Actuator takes them, {@code key:value}
 * @param statistic which of the meter's measurements: {@code VALUE} for a gauge,
 * {@code COUNT} or {@code TOTAL_TIME} (seconds) for a timer
 */
public record Gauge(String label, String meter, List<String> tags, String statistic) {

	/** A gauge's {@code VALUE}. */
	public Gauge(String label, String meter, List<String> tags) {
		this(label, meter, tags, "VALUE");
	}

	/**
	 * Tomcat platform threads serving requests (absent when requests run on virtual
	 * threads).
	 */
	public static final Gauge TOMCAT_BUSY = of("tomcat.threads.busy");

	/**
	 * Open connections to Tomcat: requests being served plus those queued for a thread
	 * (keep-alive ones too).
	 */
	public static final Gauge TOMCAT_CONNECTIONS = of("tomcat.connections.current");

	/** Tomcat's {@code server.tomcat.threads.max}. */
	public static final Gauge TOMCAT_MAX = of("tomcat.threads.config.max");

	/** HttpClient 5 connections leased from the pool. */
	public static final Gauge HTTP_POOL_LEASED = tagged("http.pool.leased",
			"httpcomponents.httpclient.pool.total.connections", "state:leased");

	/** Requests waiting for a pooled HttpClient 5 connection. */
	public static final Gauge HTTP_POOL_PENDING = of("http.pool.pending",
			"httpcomponents.httpclient.pool.total.pending");

	/** HttpClient 5 connections per route. */
	public static final Gauge HTTP_POOL_MAX_PER_ROUTE = of("http.pool.max-per-route",
			"httpcomponents.httpclient.pool.route.max.default");

	/**
	 * Reactor Netty connections in use (WebClient), when its pool metrics are enabled.
	 */
	public static final Gauge REACTOR_ACTIVE = of("reactor.pool.active",
			"reactor.netty.connection.provider.active.connections");

	/** Reactor Netty acquisitions waiting for a connection. */
	public static final Gauge REACTOR_PENDING = of("reactor.pool.pending",
			"reactor.netty.connection.provider.pending.connections");

	/** Reactor Netty's {@code maxConnections}. */
	public static final Gauge REACTOR_MAX = of("reactor.pool.max", "reactor.netty.connection.provider.max.connections");

	/** Hikari connections in use. */
	public static final Gauge HIKARI_ACTIVE = of("hikari.active", "hikaricp.connections.active");

	/** Hikari idle connections. */
	public static final Gauge HIKARI_IDLE = of("hikari.idle", "hikaricp.connections.idle");

	/** Threads waiting for a Hikari connection. */
	public static final Gauge HIKARI_PENDING = of("hikari.pending", "hikaricp.connections.pending");

	/** Hikari's maximum pool size. */
	public static final Gauge HIKARI_MAX = of("hikari.max", "hikaricp.connections.max");

	/** Connections Hikari lent out so far (its usage timer's count). */
	public static final Gauge HIKARI_USES = statistic("hikari.uses", "hikaricp.connections.usage", "COUNT");

	/**
	 * Seconds connections were held, summed over every use so far (its usage timer's
	 * total): with {@link #HIKARI_USES}, how long one use holds a connection,
	 * {@link GaugeTimeline#meanTime}.
	 */
	public static final Gauge HIKARI_USAGE_SECONDS = statistic("hikari.usage.seconds", "hikaricp.connections.usage",
			"TOTAL_TIME");

	/**
	 * Live platform threads of the JVM (virtual threads are not counted by the JVM's
	 * thread MXBean).
	 */
	public static final Gauge JVM_LIVE_THREADS = of("jvm.threads.live");

	/**
	 * Virtual threads mounted on carriers: Micrometer's {@code jvm.threads.virtual.live}
	 * tagged {@code scheduling.status=mounted}, which its {@code VirtualThreadMetrics}
	 * (micrometer-java21 1.15+) publishes on JDK 24+ (JDK 21 has no such count).
	 */
	public static final Gauge VIRTUAL_MOUNTED = tagged("jvm.threads.virtual.mounted", "jvm.threads.virtual.live",
			"scheduling.status:mounted");

	/**
	 * Virtual threads waiting for a carrier:
	 * {@code jvm.threads.virtual.live{scheduling.status=queued}} (JDK 24+).
	 */
	public static final Gauge VIRTUAL_QUEUED = tagged("jvm.threads.virtual.queued", "jvm.threads.virtual.live",
			"scheduling.status:queued");

	/**
	 * Agroal connections in use (Quarkus' datasource, with
	 * {@code quarkus.datasource.metrics.enabled=true}).
	 */
	public static final Gauge AGROAL_ACTIVE = of("agroal.active", "agroal.active.count");

	/**
	 * The most Agroal connections ever in use at once: Agroal publishes no maximum size,
	 * and a pool that made threads wait has reached it.
	 */
	public static final Gauge AGROAL_MAX_USED = of("agroal.max-used", "agroal.max.used.count");

	/** Threads waiting for an Agroal connection. */
	public static final Gauge AGROAL_AWAITING = of("agroal.awaiting", "agroal.awaiting.count");

	/**
	 * The permits of Resilience4j's bulkheads (summed over the bulkheads a service has),
	 * published with Actuator and resilience4j-micrometer.
	 */
	public static final Gauge BULKHEAD_MAX = of("bulkhead.max", "resilience4j.bulkhead.max.allowed.concurrent.calls");

	/** Permits of Resilience4j's bulkheads free at the moment. */
	public static final Gauge BULKHEAD_AVAILABLE = of("bulkhead.available",
			"resilience4j.bulkhead.available.concurrent.calls");

	/**
	 * The threads Resilience4j's thread-pool bulkheads keep, their core (summed over the
	 * thread-pool bulkheads a service has): a call runs on one of them or waits in the
	 * queue, and the pool grows past them only when the queue is full.
	 */
	public static final Gauge THREAD_POOL_BULKHEAD_CORE = of("thread-pool-bulkhead.core",
			"resilience4j.bulkhead.core.thread.pool.size");

	/**
	 * The threads Resilience4j's thread-pool bulkheads may grow to once their queues are
	 * full.
	 */
	public static final Gauge THREAD_POOL_BULKHEAD_MAX = of("thread-pool-bulkhead.max",
			"resilience4j.bulkhead.max.thread.pool.size");

	/** Calls waiting in Resilience4j's thread-pool bulkheads' queues for a thread. */
	public static final Gauge THREAD_POOL_BULKHEAD_QUEUED = of("thread-pool-bulkhead.queued",
			"resilience4j.bulkhead.queue.depth");

	/** How many calls Resilience4j's thread-pool bulkheads' queues hold. */
	public static final Gauge THREAD_POOL_BULKHEAD_QUEUE_CAPACITY = of("thread-pool-bulkhead.queue-capacity",
			"resilience4j.bulkhead.queue.capacity");

	/**
	 * The core threads of Spring's own task executor, the {@code applicationTaskExecutor}
	 * Spring Boot configures from {@code spring.task.execution.pool.*} (Spring's
	 * {@code executor.*} meters of that bean).
	 */
	public static final Gauge TASK_EXECUTOR_CORE = tagged("task-executor.core", "executor.pool.core",
			"name:applicationTaskExecutor");

	/** The most threads Spring's {@code applicationTaskExecutor} may grow to. */
	public static final Gauge TASK_EXECUTOR_MAX = tagged("task-executor.max", "executor.pool.max",
			"name:applicationTaskExecutor");

	/** Threads of Spring's {@code applicationTaskExecutor} running a task. */
	public static final Gauge TASK_EXECUTOR_ACTIVE = tagged("task-executor.active", "executor.active",
			"name:applicationTaskExecutor");

	/** Tasks waiting in Spring's {@code applicationTaskExecutor}'s queue for a thread. */
	public static final Gauge TASK_EXECUTOR_QUEUED = tagged("task-executor.queued", "executor.queued",
			"name:applicationTaskExecutor");

	/**
	 * Request threads waiting in Resilience4j's rate limiters for a permit of a coming
	 * period (summed over the rate limiters a service has).
	 */
	public static final Gauge RATE_LIMITER_WAITING = of("ratelimiter.waiting",
			"resilience4j.ratelimiter.waiting_threads");

	/**
	 * Permits of Resilience4j's rate limiters left in the current period; below zero when
	 * waiting threads have reserved permits of periods to come.
	 */
	public static final Gauge RATE_LIMITER_AVAILABLE = of("ratelimiter.available",
			"resilience4j.ratelimiter.available.permissions");

	/**
	 * Everything above, Spring Boot's and Quarkus' meters; meters a service does not have
	 * are skipped.
	 */
	public static final List<Gauge> SPRING_BOOT_CAPS = List.of(TOMCAT_BUSY, TOMCAT_MAX, TOMCAT_CONNECTIONS,
			HTTP_POOL_LEASED, HTTP_POOL_PENDING, HTTP_POOL_MAX_PER_ROUTE, REACTOR_ACTIVE, REACTOR_PENDING, REACTOR_MAX,
			HIKARI_ACTIVE, HIKARI_IDLE, HIKARI_PENDING, HIKARI_MAX, HIKARI_USES, HIKARI_USAGE_SECONDS, JVM_LIVE_THREADS,
			VIRTUAL_MOUNTED, VIRTUAL_QUEUED, AGROAL_ACTIVE, AGROAL_MAX_USED, AGROAL_AWAITING, BULKHEAD_MAX,
			BULKHEAD_AVAILABLE, THREAD_POOL_BULKHEAD_CORE, THREAD_POOL_BULKHEAD_MAX, THREAD_POOL_BULKHEAD_QUEUED,
			THREAD_POOL_BULKHEAD_QUEUE_CAPACITY, TASK_EXECUTOR_CORE, TASK_EXECUTOR_MAX, TASK_EXECUTOR_ACTIVE,
			TASK_EXECUTOR_QUEUED, RATE_LIMITER_WAITING, RATE_LIMITER_AVAILABLE);

	/** The meter {@code meter}, labelled by its own name. */
	public static Gauge of(String meter) {
		return new Gauge(meter, meter, List.of());
	}

	/** The meter {@code meter}, labelled {@code label} in timelines and reports. */
	public static Gauge of(String label, String meter) {
		return new Gauge(label, meter, List.of());
	}

	/**
	 * The measurement {@code statistic} ({@code COUNT}, {@code TOTAL_TIME}, {@code MAX})
	 * of a timer or counter.
	 */
	public static Gauge statistic(String label, String meter, String statistic) {
		return new Gauge(label, meter, List.of(), statistic);
	}

	/**
	 * The meter {@code meter} filtered by Actuator tags ({@code key:value}), labelled
	 * {@code label}.
	 */
	public static Gauge tagged(String label, String meter, String... tags) {
		return new Gauge(label, meter, List.of(tags));
	}

}
