package dev.bottleneckkit.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Loads of real requests: method, headers and body as given, a mix drawn by weight, each
 * route's figures.
 */
class RequestMixTest {

	@Test
	void aMixSendsEachRequestAsGivenDrawnByWeightAndReportsEveryRoute() throws Exception {
		try (EchoServer server = EchoServer.start()) {
			Request browse = Request.get(server.uri("/orders/42?view=full")).weight(3);
			Request order = Request.post(server.uri("/orders"), "{\"item\":\"book\"}")
				.header("Authorization", "Bearer t0ken")
				.named("place an order");

			LoadResult result = ClosedLoopLoad.users(4)
				.warmUp(Duration.ofMillis(500))
				.forDuration(Duration.ofSeconds(2))
				.run(browse, order);

			assertThat(server.seen).as("the POST went with its header and body, the GET with its query")
				.contains("POST /orders Bearer t0ken {\"item\":\"book\"}", "GET /orders/42?view=full null ");
			assertThat(result.byRoute()).containsOnlyKeys("GET /orders/42", "place an order");
			LoadResult posts = result.byRoute().get("place an order");
			LoadResult gets = result.byRoute().get("GET /orders/42");
			assertThat(posts.throughput() + gets.throughput()).as("the routes add up to the whole")
				.isCloseTo(result.throughput(), within(result.throughput() * 0.01));
			assertThat(posts.completed() / (double) result.completed()).as("drawn 1 in 4 by weight")
				.isBetween(0.15, 0.35);
			assertThat(posts.meanLatency()).as("each route's own latency: 50 ms for a POST")
				.isBetween(Duration.ofMillis(45), Duration.ofMillis(90));
			assertThat(gets.meanLatency()).as("10 ms for a GET").isBetween(Duration.ofMillis(8), Duration.ofMillis(40));
		}
	}

	@Test
	void oneRequestKeepsNoRouteFigures() throws Exception {
		try (EchoServer server = EchoServer.start()) {
			LoadResult result = ClosedLoopLoad.users(1)
				.warmUp(Duration.ZERO)
				.forRequests(5)
				.run(server.uri("/orders/1"));

			assertThat(result.byRoute()).isEmpty();
		}
	}

	@Test
	void badRequestsAndMixesGetOneLine() {
		URI uri = URI.create("http://localhost:8080/orders");

		assertThatIllegalArgumentException().isThrownBy(() -> Request.of("post", uri, ""))
			.withMessage("method must be an HTTP method in upper case, was 'post'");
		assertThatIllegalArgumentException().isThrownBy(() -> Request.get(uri).header("Content-Length", "3"))
			.withMessage("header must be a plain name other than Host and Content-Length, was 'Content-Length'");
		assertThatIllegalArgumentException().isThrownBy(() -> Request.get(uri).weight(0))
			.withMessage("weight must be between 1 and 1000, was 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ClosedLoopLoad.users(1)
				.run(Request.get(uri), Request.get(URI.create("http://localhost:8080/orders?page=2"))))
			.withMessage("two requests of the mix are named 'GET /orders': name them apart with named(..)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ClosedLoopLoad.users(1)
				.run(Request.get(uri), Request.get(URI.create("http://localhost:9090/stock")).named("stock")))
			.withMessage(
					"a mix of requests goes to one service: localhost:8080 and localhost:9090 are two; run a load for each");
	}

	/**
	 * Answers GETs after 10 ms and anything else after 50 ms, and notes "METHOD path
	 * Authorization body".
	 */
	private static final class EchoServer implements AutoCloseable {

		final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

		private final HttpServer server;

		private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

		private EchoServer() throws IOException {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
			this.server.setExecutor(this.handlers);
			this.server.createContext("/", (exchange) -> {
				String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
				if (this.seen.size() < 10_000) {
					this.seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
							+ exchange.getRequestHeaders().getFirst("Authorization") + " " + body);
				}
				try {
					Thread.sleep(exchange.getRequestMethod().equals("GET") ? 10 : 50);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				byte[] answer = "ok".getBytes(StandardCharsets.US_ASCII);
				exchange.sendResponseHeaders(200, answer.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(answer);
				}
			});
			this.server.start();
		}

		static EchoServer start() throws IOException {
			return new EchoServer();
		}

		URI uri(String pathAndQuery) {
			return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + pathAndQuery);
		}

		@Override
		public void close() {
			this.server.stop(0);
			this.handlers.shutdownNow();
		}

	}

}
