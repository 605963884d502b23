package dev.bottleneckkit.sweep;

import java.util.Optional;
import java.util.function.Consumer;

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

	/** A whole number the test set on the service as {@code variable}. */
	public static Optional<Integer> configured(AbstractServiceContainer<?> service, String variable) {
		String value = service.getEnvMap().get(variable);
		return (value != null && value.trim().matches("\\d+")) ? Optional.of(Integer.parseInt(value.trim()))
				: Optional.empty();
	}

}
