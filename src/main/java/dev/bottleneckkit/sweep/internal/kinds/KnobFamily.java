package dev.bottleneckkit.sweep.internal.kinds;

import java.util.function.DoubleFunction;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Knob;

/**
 * A resource's knob at any limit.
 *
 * @param step the smallest change of the limit: 1 for a pool or threads, 0.1 for CPUs
 * @param knob the knob at a limit, its factor 1 (the search sets it)
 */
public record KnobFamily(double step, DoubleFunction<Knob> knob) {

	/** The knob at {@code value}, raising {@code limit} by their ratio. */
	public Knob at(double value, double limit) {
		Knob at = this.knob.apply(value);
		return new Knob(at.name(), Math.max(1, value / limit), at.turn());
	}

	/**
	 * A Quarkus setting by its environment variable (Quarkus reads
	 * {@code quarkus.datasource.jdbc.max-size} from
	 * {@code QUARKUS_DATASOURCE_JDBC_MAX_SIZE}).
	 */
	public static KnobFamily quarkus(String name, String variable) {
		return new KnobFamily(1, (value) -> Knob.of(name + Knobs.count(value), 1,
				(container) -> container.withEnv(variable, Long.toString(Math.round(value)))));
	}

}
