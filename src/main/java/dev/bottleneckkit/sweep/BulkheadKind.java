package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A bulkhead: a semaphore's permits all held with request threads waiting
 * ({@link Bulkheads}: Resilience4j's {@code Bulkhead} by its meters or its frames, a
 * plain {@code Semaphore} by its frames). A thread-pool bulkhead is found as the executor
 * it is ({@link OwnPools}) and named a bulkhead with its name in {@code where}: its knob
 * raises its core and its most threads. The TCP connections it lets through agree with
 * its permits, yet are not where it is.
 */
final class BulkheadKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.BULKHEAD;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(Bulkheads::bulkhead);
	}

	@Override
	public boolean weighedAgainstTheCpu() {
		return true;
	}

	@Override
	public boolean connectionsAgree() {
		return true;
	}

	@Override
	public boolean atItsDestination() {
		return false;
	}

	/**
	 * A thread-pool bulkhead's (its name in {@code where}; a semaphore's has none): its
	 * calls run on its core threads until its queue is full, so the core is raised, and
	 * the most with it.
	 */
	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return verdict.where()
			.map((name) -> new Knob.Family(1,
					(value) -> Knob.of("bulkhead " + name + " " + Verdict.count(value) + " threads", 1, (container) -> {
						String instance = "resilience4j.thread-pool-bulkhead.instances." + name;
						container.withSpringProperty(instance + ".core-thread-pool-size", (int) Math.round(value));
						container.withSpringProperty(instance + ".max-thread-pool-size", (int) Math.round(value));
					})));
	}

}
