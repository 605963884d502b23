package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fixed closed loops on a few long-held resources, outside any scenario's set-up: K
 * resources each held H by a request, 2 to 5 users per resource, served in the order they
 * came or in the reverse one (a scheduler that runs the newest first starves the oldest).
 * Throughput can never exceed K / H; it is held to K / H plus its counting error, and the
 * mean latency to users / throughput (Little's law). A 9-user run on 3 carriers pinned 1
 * s read 3.34 rps for 3.0 with the estimator before.
 */
class QueueCeilingTest {

	/** The least counting error a window is held to. */
	static final double COUNTING_ERROR = 0.03;

	@ParameterizedTest(name = "{0} resources held {1} ms, {2} users, {3} order")
	@CsvSource({ "3, 1000, 9, fifo, 3000, 9000", "3, 1000, 9, lifo, 3000, 9000", "2, 200, 10, random, 1000, 4000",
			"2, 200, 10, lifo, 1000, 4000", "4, 500, 8, random, 1000, 3000", "1, 2000, 3, fifo, 2000, 6000" })
	void aQueueOnAFewResourcesReadsNoMoreThanTheyAllow(int resources, long holdMs, int users, String order,
			long warmUpMs, long windowMs) throws Exception {
		Gate gate = new Gate(resources, order);
		try (RawServer server = new RawServer((n, line, out) -> {
			gate.hold(Duration.ofMillis(holdMs));
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(users)
				.warmUp(Duration.ofMillis(warmUpMs))
				.forDuration(Duration.ofMillis(windowMs))
				.quiet()
				.run(server.uri("/"));

			double physical = resources / (holdMs / 1000.0);
			double ratio = result.throughput() / physical;
			double countingError = Math.max(COUNTING_ERROR, (users - resources) / (3.0 * physical * windowMs / 1000.0));
			System.out.printf(Locale.ROOT, "[queue] %d × %d ms, %d users, %s: %.3f rps of %.3f = %.3f (allowed %.3f)%n",
					resources, holdMs, users, order, result.throughput(), physical, ratio, 1 + countingError);
			assertThat(ratio).as("measured / physical (K / H)").isLessThanOrEqualTo(1 + countingError);
			assertThat(ratio).as("and no far less: the resources were never idle").isGreaterThan(0.9);
			double littlesLaw = users / result.throughput();
			assertThat(result.meanLatency().toNanos() / 1e9).as("W = L / X")
				.isCloseTo(littlesLaw, org.assertj.core.api.Assertions.within(littlesLaw * 0.05));
		}
	}

	/**
	 * K permits handed to waiters first come first served, at random, or newest first.
	 */
	static final class Gate {

		private final java.util.List<CountDownLatch> waiting = new java.util.ArrayList<>();

		private final String order;

		private final java.util.Random random = new java.util.Random(7);

		private int free;

		Gate(int permits, String order) {
			this.free = permits;
			this.order = order;
		}

		void hold(Duration hold) {
			CountDownLatch mine = new CountDownLatch(1);
			synchronized (this) {
				if (this.free > 0) {
					this.free--;
					mine.countDown();
				}
				else {
					this.waiting.add(mine);
				}
			}
			try {
				mine.await();
				Thread.sleep(hold);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				synchronized (this) {
					CountDownLatch next = this.waiting.isEmpty() ? null : this.waiting.remove(switch (this.order) {
						case "lifo" -> this.waiting.size() - 1;
						case "random" -> this.random.nextInt(this.waiting.size());
						default -> 0;
					});
					if (next != null) {
						next.countDown();
					}
					else {
						this.free++;
					}
				}
			}
		}

	}

}
