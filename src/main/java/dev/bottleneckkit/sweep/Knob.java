package dev.bottleneckkit.sweep;

import java.util.Optional;
import java.util.function.Consumer;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A setting of the service that raises one resource's limit, for a sweep to prove its
 * verdict by changing it ({@link Sweep#confirming(Knob)}): the sweep starts the service
 * again with the knob turned, measures the knee's step and the next doubling, and says
 * whether the ceiling moved as the model predicts.
 *
 * <pre>{@code
 * Sweep.of(orders, "/orders/42").confirming().run();                        // the named resource's own knob
 * Sweep.of(orders, "/price").confirming(Knob.springProperty("HttpClient pool 10", "orders.pricing.pool-size", 10));
 * Sweep.of(orders, "/stock").confirming(Knob.of("2 CPUs", (service) -> service.withCpuLimit(2)));
 * }</pre>
 *
 * @param name what the knob sets, as the verdict says it: {@code Hikari 8}
 * @param factor how much the knob raises the resource's limit (2 for a doubling), for the
 * prediction; 1 when it raises something else (then the ceiling should not move)
 * @param turn what it does to the service's container before the new start
 */
public record Knob(String name, double factor, Consumer<AbstractServiceContainer<?>> turn) {

	public Knob {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("a knob needs a name the verdict can say, was '" + name + "'");
		}
		Knobs.between("factor", factor, 1.0, 1000.0);
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
	 * The knob Spring Boot or the JVM has for the resource {@code verdict} names,
	 * doubling its limit; empty for a resource with no such knob (a client pool, a lock,
	 * the machine's cores, the downstream): pass one of your own.
	 */
	static Optional<Knob> doubling(Capped verdict, AbstractServiceContainer<?> service) {
		int limit = (int) Math.round(verdict.model().limit());
		return switch (verdict.resource()) {
			case HIKARI_POOL -> Optional
				.of(springProperty("Hikari " + 2 * limit, "spring.datasource.hikari.maximum-pool-size", 2 * limit, 2));
			case TOMCAT_THREADS ->
				Optional.of(springProperty("Tomcat threads " + 2 * limit, "server.tomcat.threads.max", 2 * limit, 2));
			case JETTY_THREADS -> {
				// Jetty's acceptor, selector and reserved threads come out of the same
				// pool: twice the serving threads need the threads beside them too.
				int configured = configured(service, "SERVER_JETTY_THREADS_MAX").orElse(limit);
				int raised = configured + limit;
				yield Optional.of(springProperty("Jetty threads " + raised, "server.jetty.threads.max", raised, 2));
			}
			case CARRIER_THREADS -> Optional.of(of("carriers " + 2 * limit, 2,
					(container) -> container.withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + 2 * limit)));
			case REACTOR_NETTY_POOL -> Optional.of(of("Reactor Netty pool " + 2 * limit, 2,
					(container) -> container.withJvmOptions("-Dreactor.netty.pool.maxConnections=" + 2 * limit)));
			case CPU -> verdict.where().filter("service"::equals).map((where) -> {
				double cpus = verdict.model().limit() * 2;
				return of(Verdict.count(cpus) + " CPUs", 2, (container) -> container.withCpuLimit(cpus));
			});
			default -> Optional.empty();
		};
	}

	private static Optional<Integer> configured(AbstractServiceContainer<?> service, String variable) {
		String value = service.getEnvMap().get(variable);
		return (value != null && value.trim().matches("\\d+")) ? Optional.of(Integer.parseInt(value.trim()))
				: Optional.empty();
	}

}
