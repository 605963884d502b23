package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.sweep.internal.kinds.KnobFamily;

/**
 * What a {@link Verdict.Capped} can name as the cap of a service: one the kit knows, or
 * {@link #OWN}, a limit only the team's service has, declared by the test
 * ({@link #own(String)}).
 */
public enum Resource {

	/**
	 * A limit only the team's service has, declared by the test with {@link #own(String)}
	 * and named in the test's words ({@link Verdict.Capped#where()}).
	 */
	OWN("the team's own resource"),

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
	 * {@code java.util.concurrent.Semaphore} in the team's code by its frames); or every
	 * thread of Resilience4j's {@code ThreadPoolBulkhead} busy, request threads waiting
	 * on its work (by its threads' names, its sizes from its meters).
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

	/**
	 * Where the requests wait, read from the dumps alone when no kind claims it: the wait
	 * site whose waiters grow while its holders stay flat
	 * ({@link dev.bottleneckkit.sweep.internal.waits.SiteReading}).
	 */
	WAIT_SITE("where the requests wait"),

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

	/**
	 * A limit only the team's service has, for a sweep to name when it is full
	 * ({@code Sweep.knowing(own)}): a pool of renderers, licences, slots of the team's
	 * own, read by the meters the service publishes and, when the test says where, the
	 * frame its waiters wait in.
	 *
	 * <pre>{@code
	 * Sweep.of(stock, "/render")
	 *     .knowing(Resource.own("renderers").limitFrom("stock.renderers.size").inUseFrom("stock.renderers.busy"))
	 *     .confirming(Knob.springProperty("renderers 6", "stock.renderers", 6, 2))
	 *     .run();
	 * }</pre>
	 * @param words what the team calls it, as the verdict says it and its model counts
	 * it: {@code renderers}
	 */
	public static Own own(String words) {
		if (words == null || words.isBlank()) {
			throw new IllegalArgumentException(
					"a resource of the team's own needs the words the verdict names it by, e.g. \"renderers\"");
		}
		return new Own(words.strip(), Optional.empty(), OptionalInt.empty(), OptionalDouble.empty(), Optional.empty(),
				Optional.empty(), Optional.empty(), "declared by the test");
	}

	/**
	 * A limit only the team's service has ({@link #own(String)}): its limit from a meter
	 * or as configured, how many are in use from a meter, and where its waiters wait. It
	 * is named when, at the cap, its meter shows every one in use in most steps or its
	 * waiters' frame holds request threads in most thread dumps. Its model is Little's
	 * law: the limit over what a request holds of it, read below the cap from the in-use
	 * meter (its mean over the step's throughput, the utilization law), else over the
	 * route's latency at one user. A rate of the team's own ({@link #permitsPerSecond}:
	 * Guava's {@code RateLimiter}, whose rate lives in the team's code) holds no latency:
	 * its model is its permits over a second.
	 */
	public static final class Own {

		private final String words;

		private final Optional<Gauge> limitMeter;

		private final OptionalInt limit;

		private final OptionalDouble rate;

		private final Optional<Gauge> inUse;

		private final Optional<String> waitingIn;

		private final Optional<String> property;

		private final String declaredBy;

		private Own(String words, Optional<Gauge> limitMeter, OptionalInt limit, OptionalDouble rate,
				Optional<Gauge> inUse, Optional<String> waitingIn, Optional<String> property, String declaredBy) {
			this.words = words;
			this.limitMeter = limitMeter;
			this.limit = limit;
			this.rate = rate;
			this.inUse = inUse;
			this.waitingIn = waitingIn;
			this.property = property;
			this.declaredBy = declaredBy;
		}

		/** Its limit, from the gauge {@code meter} the service publishes. */
		public Own limitFrom(String meter) {
			return new Own(this.words, Optional.of(Gauge.of(checkedName("limitFrom", meter))), OptionalInt.empty(),
					OptionalDouble.empty(), this.inUse, this.waitingIn, this.property, this.declaredBy);
		}

		/** Its limit as the service is configured, when no meter publishes it. */
		public Own limit(int configured) {
			return new Own(this.words, Optional.empty(),
					OptionalInt.of(Knobs.between("limit", configured, 1, 1_000_000)), OptionalDouble.empty(),
					this.inUse, this.waitingIn, this.property, this.declaredBy);
		}

		/**
		 * A rate as the service is configured, {@code permits} a second, in place of a
		 * limit: a rate limiter whose rate lives in the team's code, as Guava's
		 * {@code RateLimiter.create(permitsPerSecond)} does. It shows full where its
		 * waiters wait ({@link #waitingIn}:
		 * {@code com.google.common.util.concurrent.RateLimiter.acquire}).
		 */
		public Own permitsPerSecond(double permits) {
			return new Own(this.words, Optional.empty(), OptionalInt.empty(),
					OptionalDouble.of(Knobs.between("permitsPerSecond", permits, 0.001, 1_000_000)), this.inUse,
					this.waitingIn, this.property, this.declaredBy);
		}

		/** How many are in use, from the gauge {@code meter} the service publishes. */
		public Own inUseFrom(String meter) {
			return new Own(this.words, this.limitMeter, this.limit, this.rate,
					Optional.of(Gauge.of(checkedName("inUseFrom", meter))), this.waitingIn, this.property,
					this.declaredBy);
		}

		/**
		 * Where request threads wait for one: a frame of the thread dumps, a method
		 * ({@code com.example.stock.Renderers.take}) or a class. Alone, with no limit, it
		 * names where the requests wait when the dumps find the cap there
		 * ({@link Resource#WAIT_SITE}): its holders and its model are the dumps'.
		 */
		public Own waitingIn(String frame) {
			return new Own(this.words, this.limitMeter, this.limit, this.rate, this.inUse,
					Optional.of(checkedName("waitingIn", frame)), this.property, this.declaredBy);
		}

		/**
		 * The Spring Boot property that sets its limit, for {@code confirming()}: the
		 * sweep doubles it ({@code stock.renderers}).
		 */
		public Own turnedBy(String springProperty) {
			return new Own(this.words, this.limitMeter, this.limit, this.rate, this.inUse, this.waitingIn,
					Optional.of(checkedName("turnedBy", springProperty)), this.declaredBy);
		}

		/** It as a kind of the team's own declares it ({@link Kind}). */
		Own declaredBy(Class<?> kind) {
			return new Own(this.words, this.limitMeter, this.limit, this.rate, this.inUse, this.waitingIn,
					this.property, "its kind " + kind.getSimpleName());
		}

		/**
		 * Who declared it, as a verdict says: {@code declared by the test}, or
		 * {@code its kind Renderers} for a {@link Kind} of the team's own.
		 */
		public String declaredBy() {
			return this.declaredBy;
		}

		/** What the team calls it. */
		public String words() {
			return this.words;
		}

		public Optional<Gauge> limitMeter() {
			return this.limitMeter;
		}

		public OptionalInt configuredLimit() {
			return this.limit;
		}

		public OptionalDouble rate() {
			return this.rate;
		}

		public Optional<Gauge> inUse() {
			return this.inUse;
		}

		public Optional<String> waitingFrame() {
			return this.waitingIn;
		}

		/** Its knob, where it has one ({@link #turnedBy}): its limit at any value. */
		Optional<KnobFamily> knob() {
			return this.property.map((name) -> new KnobFamily(1, (value) -> Knob
				.springProperty(this.words + " " + Knobs.count(value), name, (int) Math.round(value), 1)));
		}

		/** The meters a sweep samples for it. */
		public List<Gauge> meters() {
			return java.util.stream.Stream.of(this.limitMeter, this.inUse).flatMap(Optional::stream).toList();
		}

		/**
		 * Fails in one line naming what to add when a sweep could never name it: no
		 * limit, or nothing that shows it full.
		 */
		Own checked() {
			if (this.rate.isPresent()) {
				if (this.waitingIn.isEmpty()) {
					throw new IllegalArgumentException("Resource.own(\"" + this.words
							+ "\") is a rate: it needs where its waiters wait, waitingIn(frame)");
				}
				return this;
			}
			if (this.limitMeter.isEmpty() && this.limit.isEmpty()) {
				if (this.inUse.isEmpty() && this.waitingIn.isPresent()) {
					return this;
				}
				throw new IllegalArgumentException("Resource.own(\"" + this.words
						+ "\") needs its limit: limitFrom(meter), limit(configured) or permitsPerSecond(rate);"
						+ " or, alone, where its waiters wait: waitingIn(frame)");
			}
			if (this.inUse.isEmpty() && this.waitingIn.isEmpty()) {
				throw new IllegalArgumentException("Resource.own(\"" + this.words
						+ "\") needs what shows it full: inUseFrom(meter) or waitingIn(frame)");
			}
			return this;
		}

		@Override
		public String toString() {
			return this.words;
		}

		private static String checkedName(String what, String name) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException(what + " needs a name, e.g. \"stock.renderers.busy\"");
			}
			return name.strip();
		}

	}

}
