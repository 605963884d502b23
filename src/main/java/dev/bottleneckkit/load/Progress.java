package dev.bottleneckkit.load;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waits for a load's workers to finish, logging the throughput every 5 s so long runs show progress. */
final class Progress {

	private static final Logger log = LoggerFactory.getLogger(Progress.class);

	private Progress() {
	}

	static void await(ExecutorService workers, Measurement measurement, String name) {
		try {
			long lastLogged = 0;
			while (!workers.awaitTermination(1, TimeUnit.SECONDS)) {
				long second = (System.nanoTime() - measurement.startNanos) / 1_000_000_000L;
				if (second >= lastLogged + 5) {
					lastLogged = second;
					log.info("{}: {} s, {} rps in the last second", name, second, measurement.succeededInSecond(second - 1));
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			workers.shutdownNow();
		}
	}

}
