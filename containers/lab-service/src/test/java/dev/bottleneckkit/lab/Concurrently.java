package dev.bottleneckkit.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Runs one call from each of {@code n} virtual threads at once and returns their results.
 */
final class Concurrently {

	private Concurrently() {
	}

	static <T> List<T> run(int n, Supplier<T> call) throws Exception {
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				futures.add(threads.submit(call::get));
			}
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get());
			}
			return results;
		}
	}

}
