package dev.bottleneckkit.lab;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.threads.virtual.enabled=true")
@ActiveProfiles("downstream")
class VirtualThreadsKnobTest {

	@LocalServerPort
	int port;

	@Test
	void requestsRunOnVirtualThreads() {
		Map<?, ?> reply = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/work/sleep?latency=0ms")
			.retrieve()
			.body(Map.class);

		assertThat(((Map<?, ?>) reply.get("thread")).get("virtual")).as("spring.threads.virtual.enabled reached Tomcat")
			.isEqualTo(true);
	}

}
