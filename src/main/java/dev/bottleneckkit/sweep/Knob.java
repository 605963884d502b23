package dev.bottleneckkit.sweep;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;

/**
 * A setting of the service that raises one resource's limit, for a sweep to prove its
 * verdict by changing it ({@code Sweep.confirming(knob)}): the sweep starts the service
 * again with the knob turned, measures the knee's step and the next doubling, and says
 * whether the ceiling moved as the model predicts.
 *
 * <pre>{@code
 * Sweep.of(orders, "/orders/42").confirming().run();                        // the named resource's own knob
 * Sweep.of(orders, "/price").confirming(Knob.springProperty("HttpClient pool 10", "orders.pricing.pool-size", 10, 2));
 * Sweep.of(orders, "/stock").confirming(Knob.of("2 CPUs", 2, (service) -> service.withCpuLimit(2)));
 * }</pre>
 *
 * @param name what the knob sets, as the verdict says it: {@code Hikari 8}
 * @param factor how much the knob raises the resource's limit (2 for a doubling), for the
 * prediction; 1 when it raises something else (then the ceiling should not move); below 1
 * when it lowers the limit (0.5 halves it), a turn a machine can always give where it may
 * have no cores or memory to spare for a raise
 * @param turn what it does to the service's container before the new start
 */
public record Knob(String name, double factor, Consumer<AbstractServiceContainer<?>> turn) {

	public Knob {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("a knob needs a name the verdict can say, was '" + name + "'");
		}
		Knobs.between("factor", factor, 0.01, 1000.0);
		if (turn == null) {
			throw new IllegalArgumentException("a knob needs what it does to the service's container");
		}
	}

	/**
	 * A knob that sets the Spring Boot property {@code property} to {@code value} (which
	 * raises the limit {@code factor} times: give 1 when you mean to show that another
	 * resource's limit does not move the ceiling).
	 */
	public static Knob springProperty(String name, String property, Object value, double factor) {
		return new Knob(name, factor, (service) -> service.withSpringProperty(property, value));
	}

	/**
	 * A knob that does anything to the container: a CPU limit, an image tag, a JVM flag.
	 */
	public static Knob of(String name, double factor, Consumer<AbstractServiceContainer<?>> turn) {
		return new Knob(name, factor, turn);
	}

	/**
	 * The knob Spring Boot, Quarkus or the JVM has for the resource {@code verdict}
	 * names, doubling its limit; empty for a resource with no such knob (a client pool, a
	 * lock, the machine's cores, the downstream): pass one of your own.
	 */
	static Optional<Knob> doubling(Verdict.Capped verdict, AbstractServiceContainer<?> service) {
		double limit = verdict.model().limit();
		return family(verdict, service).map((family) -> family.at(2 * limit, limit));
	}

	/**
	 * The knob of the resource {@code verdict} names, at any limit: what a search turns;
	 * empty for a resource with no such knob.
	 */
	static Optional<Family> family(Verdict.Capped verdict, AbstractServiceContainer<?> service) {
		int limit = (int) Math.round(verdict.model().limit());
		return switch (verdict.resource()) {
			case HIKARI_POOL -> Optional.of(new Family(1, (value) -> springProperty("Hikari " + Verdict.count(value),
					"spring.datasource.hikari.maximum-pool-size", (int) Math.round(value), 1)));
			case TOMCAT_THREADS ->
				Optional.of(new Family(1, (value) -> springProperty("Tomcat threads " + Verdict.count(value),
						"server.tomcat.threads.max", (int) Math.round(value), 1)));
			case JETTY_THREADS -> {
				// Jetty's acceptor, selector and reserved threads come out of the same
				// pool: the serving threads are raised, the others kept.
				int others = configured(service, "SERVER_JETTY_THREADS_MAX").orElse(limit) - limit;
				yield Optional.of(new Family(1, (value) -> springProperty("Jetty threads " + Verdict.count(value),
						"server.jetty.threads.max", (int) Math.round(value) + others, 1)));
			}
			case AGROAL_POOL -> quarkus("Agroal ", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE");
			case QUARKUS_WORKER_THREADS -> quarkus("Quarkus workers ", "QUARKUS_THREAD_POOL_MAX_THREADS");
			case EVENT_LOOPS ->
				verdict.where().filter((loops) -> loops.startsWith(ThreadDumps.REACTOR_EVENT_LOOP)).isPresent()
						? Optional.of(new Family(1,
								(value) -> of("event loops " + Verdict.count(value), 1,
										(container) -> container
											.withJvmOptions("-Dreactor.netty.ioWorkerCount=" + Math.round(value)))))
						: quarkus("event loops ", "QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE");
			case CARRIER_THREADS ->
				Optional.of(new Family(1, (value) -> of("carriers " + Verdict.count(value), 1, (container) -> container
					.withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + Math.round(value)))));
			case REACTOR_NETTY_POOL -> Optional.of(new Family(1,
					(value) -> of("Reactor Netty pool " + Verdict.count(value), 1, (container) -> container
						.withJvmOptions("-Dreactor.netty.pool.maxConnections=" + Math.round(value)))));
			case RATE_LIMITER -> verdict.where()
				.map((name) -> new Family(1,
						(value) -> springProperty("rate limiter " + name + " " + Verdict.count(value) + " a period",
								"resilience4j.ratelimiter.instances." + name + ".limit-for-period",
								(int) Math.round(value), 1)));
			// A thread-pool bulkhead (its name in where; a semaphore's has none): its
			// calls run on its core threads until its queue is full, so the core is
			// raised, and the most with it.
			case BULKHEAD -> verdict.where()
				.map((name) -> new Family(1,
						(value) -> of("bulkhead " + name + " " + Verdict.count(value) + " threads", 1, (container) -> {
							String instance = "resilience4j.thread-pool-bulkhead.instances." + name;
							container.withSpringProperty(instance + ".core-thread-pool-size", (int) Math.round(value));
							container.withSpringProperty(instance + ".max-thread-pool-size", (int) Math.round(value));
						})));
			case CPU -> verdict.where()
				.filter("service"::equals)
				.map((where) -> new Family(0.1, (value) -> of(Verdict.count(value) + " CPUs", 1,
						(container) -> container.withCpuLimit(value))));
			default -> Optional.empty();
		};
	}

	/**
	 * A Quarkus setting by its environment variable (Quarkus reads
	 * {@code quarkus.datasource.jdbc.max-size} from
	 * {@code QUARKUS_DATASOURCE_JDBC_MAX_SIZE}).
	 */
	private static Optional<Family> quarkus(String name, String variable) {
		return Optional.of(new Family(1, (value) -> of(name + Verdict.count(value), 1,
				(container) -> container.withEnv(variable, Long.toString(Math.round(value))))));
	}

	/**
	 * A resource's knob at any limit.
	 *
	 * @param step the smallest change of the limit: 1 for a pool or threads, 0.1 for CPUs
	 * @param knob the knob at a limit, its factor 1 (the search sets it)
	 */
	record Family(double step, DoubleFunction<Knob> knob) {

		/** The knob at {@code value}, raising {@code limit} by their ratio. */
		Knob at(double value, double limit) {
			Knob at = this.knob.apply(value);
			return new Knob(at.name(), Math.max(1, value / limit), at.turn());
		}

	}

	private static Optional<Integer> configured(AbstractServiceContainer<?> service, String variable) {
		String value = service.getEnvMap().get(variable);
		return (value != null && value.trim().matches("\\d+")) ? Optional.of(Integer.parseInt(value.trim()))
				: Optional.empty();
	}

}
