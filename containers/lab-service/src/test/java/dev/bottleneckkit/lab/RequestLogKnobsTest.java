package dev.bottleneckkit.lab;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The request log's knobs ({@code lab.request-log.*}), proven by behaviour: with a
 * synchronous appender the sink's latency is paid by every request, one at a time; with
 * the asynchronous one, by nobody's request.
 */
class RequestLogKnobsTest {

	static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	static final int CALLS = 8;

	static final Duration SINK_LATENCY = Duration.ofMillis(100);

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "lab.request-log.appender=sync", "lab.request-log.sink-latency=100ms",
					"lab.request-log.file=target/request-log-sync.log", "spring.threads.virtual.enabled=true" })
	@ActiveProfiles("downstream")
	class Synchronous extends Downstream {

		@Test
		void requestsWriteTheirLinesOneAtATime() throws Exception {
			long started = System.nanoTime();
			Concurrently.run(CALLS, () -> sleep0());
			Duration took = Duration.ofNanos(System.nanoTime() - started);

			assertThat(took).as("%d lines written one after the other, %s each", CALLS, SINK_LATENCY)
				.isGreaterThanOrEqualTo(SINK_LATENCY.multipliedBy(CALLS));
			assertThat(requestLog()).containsEntry("appender", "sync")
				.containsEntry("logged", CALLS)
				.containsEntry("written", CALLS)
				.containsEntry("sinkWrites", CALLS);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "lab.request-log.appender=async", "lab.request-log.sink-latency=100ms",
					"lab.request-log.file=target/request-log-async.log", "spring.threads.virtual.enabled=true" })
	@ActiveProfiles("downstream")
	class Asynchronous extends Downstream {

		@Test
		void requestsOnlyQueueTheirLines() throws Exception {
			Concurrently.run(CALLS, () -> sleep0());

			assertThat(requestLog()).as("logged and queued; the worker writes 8 KB at a time, so none is written yet")
				.containsEntry("appender", "async")
				.containsEntry("logged", CALLS)
				.containsEntry("sinkWrites", 0);
		}

	}

	@Test
	void aSinkLatencyOutOfRangeStopsStartupNamingTheKnob() {
		SpringApplicationBuilder app = new SpringApplicationBuilder(LabApplication.class).profiles("downstream")
			.properties("server.port=0", "lab.request-log.appender=sync", "lab.request-log.sink-latency=11s",
					"logging.level.org.springframework.boot.diagnostics=off");

		assertThatException().isThrownBy(app::run)
			.havingRootCause()
			.withMessage("lab.request-log.sink-latency must be between 0 ms and 10 s, was 11000 ms");
	}

	abstract static class Downstream {

		@LocalServerPort
		int port;

		RestClient http;

		@BeforeEach
		void client() {
			this.http = RestClient.create("http://localhost:" + this.port);
		}

		Map<String, Object> sleep0() {
			return this.http.get().uri("/work/sleep?latency=0ms").retrieve().body(JSON);
		}

		Map<String, Object> requestLog() {
			return this.http.get().uri("/probe/request-log").retrieve().body(JSON);
		}

	}

}
