package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The service's own thread pool, every thread busy with request threads waiting on its
 * work ({@link OwnPools}; a Resilience4j thread-pool bulkhead among them is named a
 * {@link BulkheadKind bulkhead}). Spring's own task executor, the
 * {@code applicationTaskExecutor} Boot configures (its name in {@code where}), is turned
 * by {@code spring.task.execution.pool.*}; any other's size is the team's code's, with no
 * knob of the kit's.
 */
final class ExecutorKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.EXECUTOR;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(OwnPools::ownPool);
	}

	/**
	 * The JDK's common pool by its threads' names: its parallelism is the cores less one
	 * unless {@code java.util.concurrent.ForkJoinPool.common.parallelism} sets it.
	 */
	static final String COMMON_POOL = "ForkJoinPool.commonPool-worker-";

	/**
	 * The common pool's parallelism, or Spring's task executor: its core raised, and its
	 * most with it (a {@code ThreadPoolExecutor} grows past its core only once its queue
	 * is full, and Boot's queue has no bound).
	 */
	@Override
	public Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		if (verdict.where().filter(COMMON_POOL::equals).isPresent()) {
			return Optional.of(new Knob.Family(1, (value) -> Knob
				.of("common pool " + Verdict.count(value) + " threads", 1, (container) -> container
					.withJvmOptions("-Djava.util.concurrent.ForkJoinPool.common.parallelism=" + Math.round(value)))));
		}
		return verdict.where()
			.filter(OwnPools.SPRING_TASK_EXECUTOR::equals)
			.map((name) -> new Knob.Family(1, (value) -> Knob
				.of("Spring's task executor " + Verdict.count(value) + " threads", 1, (container) -> {
					container.withSpringProperty("spring.task.execution.pool.core-size", (int) Math.round(value));
					container.withSpringProperty("spring.task.execution.pool.max-size", (int) Math.round(value));
				})));
	}

}
