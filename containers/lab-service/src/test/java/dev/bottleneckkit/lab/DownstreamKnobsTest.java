package dev.bottleneckkit.lab;

import java.util.Map;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "lab.downstream.latency=150ms", "server.tomcat.threads.max=7" })
@ActiveProfiles("downstream")
class DownstreamKnobsTest {

	@LocalServerPort
	int port;

	@Autowired
	WebServerApplicationContext context;

	static final org.springframework.core.ParameterizedTypeReference<Map<String, Object>> PROBE = new org.springframework.core.ParameterizedTypeReference<>() {
	};

	RestClient http;

	@BeforeEach
	void client() {
		this.http = RestClient.create("http://localhost:" + this.port);
		this.http.delete().uri("/probe/in-flight").retrieve().toBodilessEntity();
	}

	@Test
	void defaultLatencyReachesTheSleepRoute() {
		Map<?, ?> reply = this.http.get().uri("/work/sleep").retrieve().body(Map.class);

		assertThat(reply.get("latencyMs")).as("lab.downstream.latency").isEqualTo(150);
		assertThat(((Number) reply.get("sleptMs")).longValue()).as("it really slept").isGreaterThanOrEqualTo(150);
	}

	@Test
	void aRequestCanNameItsOwnLatency() {
		Map<?, ?> reply = this.http.get().uri("/work/sleep?latency=20ms").retrieve().body(Map.class);

		assertThat(reply.get("latencyMs")).as("per-request latency wins over the default").isEqualTo(20);
	}

	@Test
	void tomcatMaxThreadsReachesTomcatsExecutorAndPlatformThreadsServe() {
		ThreadPoolExecutor executor = (ThreadPoolExecutor) ((TomcatWebServer) this.context.getWebServer()).getTomcat()
			.getConnector()
			.getProtocolHandler()
			.getExecutor();

		Map<?, ?> reply = this.http.get().uri("/work/sleep?latency=0ms").retrieve().body(Map.class);

		assertThat(executor.getMaximumPoolSize()).as("server.tomcat.threads.max").isEqualTo(7);
		assertThat(((Map<?, ?>) reply.get("thread")).get("virtual")).as("virtual threads are off by default")
			.isEqualTo(false);
	}

	@Test
	void inFlightProbeSeesConcurrentRequestsAndTheirPeak() throws Exception {
		Concurrently.run(4, () -> this.http.get().uri("/work/sleep?latency=400ms").retrieve().body(Map.class));

		Map<String, Object> probe = this.http.get().uri("/probe/in-flight").retrieve().body(PROBE);
		assertThat(probe).as("4 overlapping requests, all done")
			.containsEntry("peak", 4)
			.containsEntry("current", 0)
			.containsEntry("completed", 4);
	}

	@Test
	void cpuRouteBurnsTheIterationsItIsGiven() {
		Map<?, ?> reply = this.http.get().uri("/work/cpu?iterations=1000").retrieve().body(Map.class);

		assertThat(reply.get("iterations")).isEqualTo(1000);
		assertThat((String) reply.get("digest")).hasSize(16);
	}

	@Test
	void aLatencyOutOfRangeIsRejectedNamingTheRange() {
		assertThatExceptionOfType(HttpClientErrorException.BadRequest.class)
			.isThrownBy(() -> this.http.get().uri("/work/sleep?latency=-5ms").retrieve().body(Map.class))
			.satisfies((ex) -> assertThat(ex.getResponseBodyAsString())
				.contains("latency must be between 0 ms and 10 min, was -5 ms"));
	}

}
