package dev.bottleneckkit.lab;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The caller's knobs, proven by behaviour: one app plays caller and downstream, so the
 * downstream's in-flight probe shows how many connections the caller's pool really
 * opened.
 */
class CallerKnobsTest {

	static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	/** More concurrent calls than HttpClient 5's default 5 per route. */
	static final int CALLS = 12;

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
	@ActiveProfiles({ "caller", "downstream" })
	class SpringBootsDefaultPool extends CallerAndDownstream {

		@Test
		void opensAtMostFiveConnectionsPerRoute() throws Exception {
			Concurrently.run(CALLS, () -> call("/call/sleep?latency=300ms"));

			assertThat(downstreamPeak()).as("HttpClient 5's default: 5 per route, which Spring Boot 4 keeps")
				.isEqualTo(5);
		}

		@Test
		void viaCallsANamedDownstreamAndRejectsUnknownNames() {
			Map<String, Object> reply = call("/call/sleep?latency=0ms&via=loopback");
			ResponseEntity<Map<String, Object>> unknown = exchange("/call/sleep?via=nope");

			assertThat(reply).as("lab.caller.downstreams.loopback reached").containsKey("downstream");
			assertThat(unknown.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(unknown.getBody()).containsEntry("error", "bad-request")
				.containsEntry("detail", "via must name one of lab.caller.downstreams [loopback], was 'nope'");
		}

		@Test
		void poolGaugesReportHttpClientsDefaults() {
			assertThat(meter("httpcomponents.httpclient.pool.route.max.default")).as("per-route gauge").isEqualTo(5);
			assertThat(meter("httpcomponents.httpclient.pool.total.max")).as("total gauge").isEqualTo(25);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT,
			properties = { "lab.caller.pool.max-per-route=" + CALLS, "lab.caller.pool.max-total=50" })
	@ActiveProfiles({ "caller", "downstream" })
	class PoolSizedByKnobs extends CallerAndDownstream {

		@Test
		void opensAConnectionPerConcurrentCall() throws Exception {
			Concurrently.run(CALLS, () -> call("/call/sleep?latency=300ms"));

			assertThat(downstreamPeak()).as("lab.caller.pool.max-per-route reached the pool").isEqualTo(CALLS);
			assertThat(meter("httpcomponents.httpclient.pool.route.max.default")).as("and its gauge").isEqualTo(CALLS);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT,
			properties = { "lab.caller.pool.max-per-route=50", "lab.caller.pool.max-total=3" })
	@ActiveProfiles({ "caller", "downstream" })
	class TotalBelowPerRoute extends CallerAndDownstream {

		@Test
		void maxTotalCapsTheRouteToo() throws Exception {
			Concurrently.run(CALLS, () -> call("/call/sleep?latency=300ms"));

			assertThat(downstreamPeak()).as("lab.caller.pool.max-total reached the pool").isEqualTo(3);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT,
			properties = { "spring.http.clients.read-timeout=150ms", "spring.threads.virtual.enabled=true" })
	@ActiveProfiles({ "caller", "downstream" })
	class ReadTimeoutAndVirtualThreads extends CallerAndDownstream {

		@Test
		void aSlowDownstreamEndsInAReadTimeoutStatus() {
			ResponseEntity<Map<String, Object>> reply = exchange("/call/sleep?latency=2s");

			assertThat(reply.getStatusCode()).as("spring.http.clients.read-timeout reached HttpClient")
				.isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
			assertThat(reply.getBody()).containsEntry("error", "read-timeout");
		}

		@Test
		void callerServesOnVirtualThreads() {
			Map<String, Object> reply = call("/call/sleep?latency=0ms");

			assertThat(((Map<?, ?>) reply.get("thread")).get("virtual")).as("spring.threads.virtual.enabled")
				.isEqualTo(true);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT,
			properties = { "lab.caller.bulkhead.max-concurrent-calls=2", "lab.caller.pool.max-per-route=20" })
	@ActiveProfiles({ "caller", "downstream" })
	class Bulkhead extends CallerAndDownstream {

		@Test
		void admitsItsPermitsAndRejectsTheRestAtOnce() throws Exception {
			List<HttpStatus> statuses = Concurrently.run(6, () -> status("/call/sleep?latency=2s"));

			assertThat(statuses).as("2 permits: 2 calls pass, 4 are rejected with 429 bulkhead-full")
				.containsExactlyInAnyOrder(HttpStatus.OK, HttpStatus.OK, HttpStatus.TOO_MANY_REQUESTS,
						HttpStatus.TOO_MANY_REQUESTS, HttpStatus.TOO_MANY_REQUESTS, HttpStatus.TOO_MANY_REQUESTS);
			assertThat(downstreamPeak()).as("the downstream sees no more than the bulkhead admits").isEqualTo(2);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT,
			properties = { "lab.caller.webclient.max-connections=2",
					"lab.caller.webclient.pending-acquire-max-count=2" })
	@ActiveProfiles({ "caller", "downstream" })
	class WebClientPool extends CallerAndDownstream {

		/**
		 * What reactor-pool guarantees (SimpleDequePool): a borrower is queued first;
		 * those beyond pendingAcquireMaxCount are culled when the pool next drains its
		 * queue with no connection idle and none to open ("best effort"): at most
		 * connections + pending calls are admitted, the others fail with
		 * PoolAcquirePendingLimitException, at the latest when the first connections come
		 * back (2 s here), never after a call through the pool (4 s for those that
		 * waited). Clean-clone runs saw the rejections after 1.2 s and 2.2 s, and 3
		 * admitted calls instead of 4.
		 */
		@Test
		void callsBeyondConnectionsPlusPendingFailWithoutAConnection() throws Exception {
			List<Timed> calls = Concurrently.run(8, () -> timed("/call/webclient/sleep?latency=2s"));

			assertThat(calls).as("each call passes or fails with 503 pool-pending-limit")
				.allMatch((call) -> call.status == HttpStatus.OK
						|| (call.status == HttpStatus.SERVICE_UNAVAILABLE && call.body.contains("pool-pending-limit")));
			assertThat(calls).as("at most 2 connections + 2 pending are admitted; the pool's 2 connections always are")
				.filteredOn((call) -> call.status == HttpStatus.OK)
				.hasSizeBetween(2, 4);
			assertThat(calls).as("the others fail by the pool's drain when connections come back, never after a call")
				.filteredOn((call) -> call.status != HttpStatus.OK)
				.hasSizeGreaterThanOrEqualTo(4)
				.allMatch((call) -> call.took.compareTo(Duration.ofSeconds(3)) < 0);
			assertThat(downstreamPeak()).as("the downstream sees the pool's 2 connections").isEqualTo(2);
		}

		private Timed timed(String path) {
			long started = System.nanoTime();
			ResponseEntity<String> reply = http().get()
				.uri(path)
				.retrieve()
				.onStatus((status) -> true, (request, response) -> {
				})
				.toEntity(String.class);
			return new Timed(HttpStatus.valueOf(reply.getStatusCode().value()), String.valueOf(reply.getBody()),
					Duration.ofNanos(System.nanoTime() - started));
		}

		private record Timed(HttpStatus status, String body, Duration took) {
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
	@ActiveProfiles({ "caller", "downstream" })
	class FanOut extends CallerAndDownstream {

		/**
		 * A branch that fails 300 ms after its request arrived, by resetting the
		 * connection.
		 */
		static final ResettingServer failing = ResettingServer.start(Duration.ofMillis(300));

		@DynamicPropertySource
		static void failingDownstream(DynamicPropertyRegistry registry) {
			registry.add("lab.caller.downstreams.failing", failing::url);
		}

		@Test
		void runsBothBranchesAtOnce() {
			Map<String, Object> reply = call(
					"/call/fanout?join=structured&latency=400ms&via=loopback&viaLatency=400ms");

			assertThat(reply).containsKeys("steps", "via");
			assertThat(downstreamPeak()).as("both branches in flight at the downstream together").isEqualTo(2);
		}

		@Test
		void structuredJoinCancelsTheSiblingWhenABranchFails() {
			ResponseEntity<Map<String, Object>> reply = exchange("/call/fanout?join=structured&latency=5s&via=failing");

			assertThat(reply.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
			assertThat(reply.getBody()).containsEntry("error", "connection-reset");
			await().atMost(Duration.ofSeconds(3))
				.untilAsserted(
						() -> assertThat(inFlight()).as("the sibling's /work/steps was abandoned, long before its 5 s")
							.containsEntry("current", 0)
							.containsEntry("abandoned", 1));
		}

		@Test
		void futuresJoinLetsTheSiblingRunToCompletion() {
			long started = System.nanoTime();
			ResponseEntity<Map<String, Object>> reply = exchange("/call/fanout?join=futures&latency=1s&via=failing");
			Duration took = Duration.ofNanos(System.nanoTime() - started);

			assertThat(reply.getBody()).containsEntry("error", "connection-reset");
			assertThat(took).as("allOf(..).join() waited for the sibling's full second")
				.isGreaterThan(Duration.ofSeconds(1));
			assertThat(inFlight()).as("the sibling ran to completion")
				.containsEntry("completed", 1)
				.containsEntry("abandoned", 0);
		}

		@Test
		void anUnknownJoinIsABadRequest() {
			ResponseEntity<Map<String, Object>> reply = exchange("/call/fanout?join=parallel&via=loopback");

			assertThat(reply.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(reply.getBody()).containsEntry("detail",
					"join must be 'structured' or 'futures', was 'parallel'");
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
	@ActiveProfiles({ "caller", "downstream" })
	class FirstSuccess extends CallerAndDownstream {

		@Test
		void theFastestBranchAnswersAndTheOthersAreAbandoned() {
			long started = System.nanoTime();
			Map<String, Object> reply = call("/call/first-success?join=first&latencies=3s,200ms,4s");
			Duration took = Duration.ofNanos(System.nanoTime() - started);

			assertThat(reply).containsEntry("join", "first").containsEntry("winner", 1);
			assertThat(took).as("the 200 ms branch answered, not the 3 s or 4 s one").isLessThan(Duration.ofSeconds(2));
			await().atMost(Duration.ofSeconds(3))
				.untilAsserted(() -> assertThat(inFlight())
					.as("both slower branches' /work/steps abandoned, long before their 3 s and 4 s")
					.containsEntry("current", 0)
					.containsEntry("peak", 3)
					.containsEntry("abandoned", 2));
		}

		@Test
		void whenTheFastestBranchFailsTheNextSuccessAnswers() {
			Map<String, Object> reply = call("/call/first-success?join=first&latencies=300ms,100ms,3s&failing=1");

			assertThat(reply).containsEntry("winner", 0);
			await().atMost(Duration.ofSeconds(3))
				.untilAsserted(() -> assertThat(inFlight())
					.as("the failed branch and the winner completed; the 3 s branch was abandoned")
					.containsEntry("current", 0)
					.containsEntry("completed", 3)
					.containsEntry("abandoned", 1));
		}

		@Test
		void waitingForAllGivesTheSameAnswerOnceEveryBranchEnded() {
			long started = System.nanoTime();
			Map<String, Object> reply = call("/call/first-success?join=all&latencies=1s,100ms");
			Duration took = Duration.ofNanos(System.nanoTime() - started);

			assertThat(reply).containsEntry("join", "all").containsEntry("winner", 1);
			assertThat(took).as("answered only once the 1 s branch ended")
				.isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			await().atMost(Duration.ofSeconds(1))
				.untilAsserted(() -> assertThat(inFlight()).as("both branches ran to their end")
					.containsEntry("completed", 2)
					.containsEntry("abandoned", 0));
		}

		@Test
		void everyBranchFailingFailsTheRouteAndBadKnobsAreBadRequests() {
			ResponseEntity<Map<String, Object>> failed = exchange(
					"/call/first-success?join=first&latencies=10ms&failing=0");
			ResponseEntity<Map<String, Object>> badJoin = exchange("/call/first-success?join=any&latencies=10ms");
			ResponseEntity<Map<String, Object>> badIndex = exchange(
					"/call/first-success?join=first&latencies=10ms&failing=1");

			assertThat(failed.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
			assertThat(failed.getBody()).containsEntry("error", "downstream-status");
			assertThat(badJoin.getBody()).containsEntry("detail", "join must be 'first' or 'all', was 'any'");
			assertThat(badIndex.getBody()).containsEntry("detail", "failing must be a branch index from 0 to 0, was 1");
		}

	}

	@Test
	void aPoolSizeOutOfRangeStopsStartupNamingTheKnob() {
		SpringApplicationBuilder app = new SpringApplicationBuilder(LabApplication.class).profiles("caller")
			.properties("server.port=0", "lab.caller.pool.max-per-route=0",
					// the failure is expected; keep Boot's failure report out of the
					// build log
					"logging.level.org.springframework.boot.diagnostics=off");

		assertThatException().isThrownBy(app::run)
			.havingRootCause()
			.withMessage("lab.caller.pool.max-per-route must be between 1 and 10000, was 0");
	}

	/**
	 * Runs caller and downstream in one app on a free fixed port, the caller pointed at
	 * itself.
	 */
	abstract static class CallerAndDownstream {

		@Value("${server.port}")
		int port;

		@DynamicPropertySource
		static void selfAsDownstream(DynamicPropertyRegistry registry) {
			// Each context gets its own port: Spring's context cache keeps earlier ones
			// running.
			int port = freePort();
			registry.add("server.port", () -> port);
			registry.add("lab.caller.downstream-url", () -> "http://localhost:" + port);
			registry.add("lab.caller.downstreams.loopback", () -> "http://127.0.0.1:" + port);
		}

		@BeforeEach
		void newInFlightWindow() {
			http().delete().uri("/probe/in-flight").retrieve().toBodilessEntity();
		}

		RestClient http() {
			return RestClient.create("http://localhost:" + this.port);
		}

		/**
		 * The answer to {@code path} whatever its status: error statuses are what these
		 * tests look at.
		 */
		ResponseEntity<Map<String, Object>> exchange(String path) {
			return http().get().uri(path).retrieve().onStatus((status) -> true, (request, response) -> {
			}).toEntity(JSON);
		}

		HttpStatus status(String path) {
			return HttpStatus.valueOf(exchange(path).getStatusCode().value());
		}

		Map<String, Object> call(String path) {
			return http().get().uri(path).retrieve().body(JSON);
		}

		double meter(String name) {
			Map<String, Object> meter = http().get().uri("/actuator/metrics/" + name).retrieve().body(JSON);
			return ((Number) ((Map<?, ?>) ((List<?>) meter.get("measurements")).get(0)).get("value")).doubleValue();
		}

		Map<String, Object> inFlight() {
			return http().get().uri("/probe/in-flight").retrieve().body(JSON);
		}

		int downstreamPeak() {
			return ((Number) http().get().uri("/probe/in-flight").retrieve().body(JSON).get("peak")).intValue();
		}

		private static int freePort() {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
