package dev.bottleneckkit.load;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load driver against a raw-socket server, one RFC 9112 corner a test: it never sends
 * a request that is not idempotent twice, reads a {@code HEAD}'s answer without a body,
 * skips interim answers, honours {@code Connection} as a list of tokens, and never reads
 * bytes nobody asked for as the next request's answer.
 */
class DriverProtocolTest {

	private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

	/**
	 * The service reads the second POST on a kept-alive connection and closes without an
	 * answer: the POST may have been taken, so it is not sent again.
	 */
	@Test
	void aPostOnAConnectionClosedUnderItIsNotSentTwice() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			if (n == 1) {
				RawServer.write(out, OK);
				return true;
			}
			return false;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(2)
				.quiet()
				.run(Request.post(server.uri("/orders"), "{\"item\":\"book\"}"));

			assertThat(server.requests()).as("POSTs the service received").hasSize(2);
			assertThat(result.errors()).as("the second POST's fate").containsEntry("stale-connection", 1L);
			assertThat(result.succeeded()).isEqualTo(1);
		}
	}

	/** A GET in the same place may be sent again, once, on a new connection. */
	@Test
	void aGetOnAConnectionClosedUnderItIsSentOnceMore() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			if (n == 1) {
				RawServer.write(out, OK);
				return true;
			}
			return false;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(2)
				.quiet()
				.run(Request.get(server.uri("/orders/42")));

			assertThat(result.errors()).isEmpty();
			assertThat(server.requests()).as("the second GET, then its retry").hasSize(3);
		}
	}

	@Test
	void aHeadIsAnsweredByItsHeadersAlone() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/html\r\n\r\n");
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(3)
				.requestTimeout(Duration.ofSeconds(2))
				.quiet()
				.run(Request.of("HEAD", server.uri("/"), ""));

			assertThat(result.errors()).as("no HEAD waits for the 1000 bytes its Content-Length names").isEmpty();
			assertThat(result.succeeded()).isEqualTo(3);
			assertThat(server.connections()).as("the connection is kept alive").isEqualTo(1);
		}
	}

	@Test
	void interimAnswersAreSkippedForTheFinalOne() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			RawServer.write(out,
					"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload"
							+ "\r\n\r\n"
							+ ((n == 2) ? "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n" : OK));
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(3)
				.quiet()
				.run(Request.post(server.uri("/orders"), "{}").header("Expect", "100-continue"));

			assertThat(result.succeeded()).as("100 and 103 are not the answer").isEqualTo(2);
			assertThat(result.errors()).containsExactlyEntriesOf(java.util.Map.of("http-503", 1L));
			assertThat(server.connections()).isEqualTo(1);
		}
	}

	@Test
	void connectionCloseAmongOtherTokensCloses() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\nConnection: close, TE\r\nContent-Length: 2\r\n\r\nok");
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(3)
				.quiet()
				.run(Request.get(server.uri("/")));

			assertThat(result.succeeded()).isEqualTo(3);
			assertThat(server.connections()).as("a connection per request: 'close, TE' closes").isEqualTo(3);
		}
	}

	/**
	 * An idle-timeout 408 that arrives after an answer is no answer to the next request:
	 * the next goes on a new connection and succeeds.
	 */
	@Test
	void bytesNobodyAskedForAreNotTheNextAnswer() throws Exception {
		try (RawServer server = new RawServer((n, line, out) -> {
			RawServer.write(out, OK + "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
			return true;
		})) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(3)
				.quiet()
				.run(Request.get(server.uri("/")));

			assertThat(result.errors()).as("no 408 counted against a request").isEmpty();
			assertThat(result.succeeded()).isEqualTo(3);
			assertThat(server.connections()).isEqualTo(3);
		}
	}

}
