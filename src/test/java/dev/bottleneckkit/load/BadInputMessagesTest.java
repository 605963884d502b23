package dev.bottleneckkit.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThatExceptionOfType;
import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * What a user sees for input that cannot work: each message in one line that names what
 * to change. The messages are the product when a guard fails, so they are pinned here
 * word for word.
 */
class BadInputMessagesTest {

	static final ClosedLoopLoad QUICK = ClosedLoopLoad.users(2)
		.warmUp(Duration.ZERO)
		.forDuration(Duration.ofSeconds(1))
		.requestTimeout(Duration.ofSeconds(2));

	@Test
	void aRouteThatAnswers404ToEveryRequestIsReportedAsSuch() throws Exception {
		try (LimitedServer server = LimitedServer.answering(404, 4, Duration.ZERO)) {
			LoadResult result = QUICK.run(server.uri());

			assertThat(result.succeeded()).isZero();
			assertThat(result.errors()).containsOnlyKeys("http-404");
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> assertThat(result).hasThroughputNear(
						dev.bottleneckkit.model.Ceiling.of(5, "threads", Duration.ofMillis(500)), withPercentage(15)))
				.withMessageStartingWith("every request failed: " + result.errorCount()
						+ " × http-404 — check the route and the service's log");
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).hasNoErrors())
				.withMessageStartingWith("every request failed: " + result.errorCount() + " × http-404");
		}
	}

	@Test
	void aServiceThatClosesEveryConnectionCountsConnectionClosed() throws Exception {
		try (ServerSocket closer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread.ofVirtual().start(() -> {
				while (!closer.isClosed()) {
					try (Socket socket = closer.accept()) {
						socket.getInputStream().read();
					}
					catch (IOException ex) {
						// the test closed the server, or the client went away
					}
				}
			});

			LoadResult result = QUICK.run(URI.create("http://127.0.0.1:" + closer.getLocalPort() + "/"));

			assertThat(result.succeeded()).isZero();
			assertThat(result.errors()).as("%s", result.errors()).containsOnlyKeys("connection-closed");
		}
	}

	@Test
	void anUnreachableServiceCountsConnectRefused() throws Exception {
		int nothingListens;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			nothingListens = socket.getLocalPort();
		}

		LoadResult result = QUICK.run(URI.create("http://127.0.0.1:" + nothingListens + "/"));

		assertThat(result.errors()).containsOnlyKeys("connect-refused");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).hasNoErrors())
			.withMessageStartingWith("every request failed: " + result.errorCount() + " × connect-refused");
	}

	@Test
	void nonsenseLoadSettingsAreRejectedNamingTheKnobAndItsRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> ClosedLoopLoad.users(0))
			.withMessage("users must be between 1 and 10000, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ClosedLoopLoad.users(-3))
			.withMessage("users must be between 1 and 10000, was -3");
		assertThatIllegalArgumentException().isThrownBy(() -> ClosedLoopLoad.users(1).warmUp(Duration.ofSeconds(-1)))
			.withMessage("warmUp must be between 0 ms and 10 min, was -1000 ms");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ClosedLoopLoad.users(1).forDuration(Duration.ofSeconds(-5)))
			.withMessage("duration must be between 1 s and 30 min, was -5000 ms");
		assertThatIllegalArgumentException().isThrownBy(() -> ClosedLoopLoad.users(1).requestTimeout(Duration.ZERO))
			.withMessage("requestTimeout must be between 1 ms and 10 min, was 0 ms");
		assertThatIllegalArgumentException().isThrownBy(() -> OpenLoopLoad.ratePerSecond(0))
			.withMessage("rate must be between 0.1 and 100000.0, was 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> OpenLoopLoad.ratePerSecond(Double.NaN))
			.withMessage("rate must be between 0.1 and 100000.0, was NaN");
	}

}
