package dev.bottleneckkit.load;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A mean over the answers that ended inside the window leaves out the requests a queue
 * held past its end, and a model held against it fails (a CPU-hogged run read 445 ms
 * where 8 users at 11 rps wait 727 ms). The mean the kit reports is Little's law over the
 * window, so throughput, users and mean latency agree in every run.
 */
class CensoredMeanTest {

	/**
	 * 4 users: two are answered at once (100 ms), the first request of each of the other
	 * two is held 4 s, past the 2 s window. The answers' mean reads 100 ms; the users
	 * spent 4 × 2 s in requests for about 20.5 answers' worth (two fast users at 10 a
	 * second, and half of each held request's life): about 195 ms.
	 */
	@Test
	void requestsHeldPastTheWindowsEndCountInTheMean() throws Exception {
		AtomicInteger held = new AtomicInteger();
		try (RawServer server = new RawServer((n, line, out) -> {
			if (n == 1 && held.getAndIncrement() < 2) {
				sleep(4000);
			}
			else {
				sleep(100);
			}
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(4)
				.warmUp(Duration.ofMillis(200))
				.forDuration(Duration.ofSeconds(2))
				.quiet()
				.run(server.uri("/orders"));

			double littlesLaw = result.users() / result.throughput() * 1000;
			assertThat(result.meanLatency().toMillis()).as("W = L / X: %.0f ms", littlesLaw)
				.isCloseTo(Math.round(littlesLaw), within(Math.round(littlesLaw * 0.1)));
			assertThat(result.meanOfAnswers().toMillis()).as("the answers that ended inside the window")
				.isLessThan(Math.round(result.meanLatency().toMillis() * 0.6));
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
