package dev.bottleneckkit.probe;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gauges that cannot see say so in one line naming what to change, never silently: an
 * Actuator without its metrics endpoint, a Tomcat without its MBean registry.
 */
class BlindGaugesTest {

	@Test
	void aServiceWithNeitherActuatorsMetricsNorPrometheusTextSaysWhatEachPathAnswered() throws Exception {
		HttpServer server = serving(404, "{\"error\":\"Not Found\"}");
		try {
			ServiceGauges gauges = ServiceGauges.at(uri(server)).start();
			Thread.sleep(Duration.ofMillis(300));
			gauges.stop();

			assertThat(gauges.blind()).hasValue("meters: 404 at /actuator/metrics, 404 at /actuator/prometheus,"
					+ " 404 at /q/metrics, 404 at /metrics, 404 at /prometheus — expose \"metrics\" or \"prometheus\""
					+ " (management.endpoints.web.exposure.include), or Hikari, Tomcat and pool meters cannot be read");
			assertThat(gauges.source()).isEmpty();
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void aTomcatWithoutItsThreadMetersIsNamed() throws Exception {
		HttpServer server = serving(200, "{\"names\":[\"jvm.threads.live\",\"tomcat.sessions.created\"]}");
		try {
			ServiceGauges gauges = ServiceGauges.at(uri(server)).start();
			Thread.sleep(Duration.ofMillis(300));
			gauges.stop();

			assertThat(gauges.blind()).hasValue("Tomcat's thread meters: absent from /actuator/metrics — set"
					+ " server.tomcat.mbeanregistry.enabled=true, or Tomcat's threads are read from thread dumps only");
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void aServiceWithEveryMeterIsNotBlind() throws Exception {
		HttpServer server = serving(200, "{\"names\":[\"tomcat.sessions.created\",\"tomcat.threads.busy\"]}");
		try {
			ServiceGauges gauges = ServiceGauges.at(uri(server)).start();
			Thread.sleep(Duration.ofMillis(300));
			gauges.stop();

			assertThat(gauges.blind()).isEmpty();
		}
		finally {
			server.stop(0);
		}
	}

	private static HttpServer serving(int status, String body) throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/", (exchange) -> {
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/actuator/metrics") ? status : 404,
					bytes.length);
			exchange.getResponseBody().write(bytes);
			exchange.close();
		});
		server.start();
		return server;
	}

	private static URI uri(HttpServer server) {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
	}

}
