package dev.bottleneckkit.probe;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service without Actuator's JSON metrics is read from the Prometheus text it serves:
 * Spring Boot's {@code /actuator/prometheus}, Quarkus' {@code /q/metrics}; one scrape per
 * round, and the gauges say where they read it.
 */
class PrometheusGaugesTest {

	@Test
	void aQuarkusServiceIsSampledFromItsQMetricsOneScrapeARound() throws Exception {
		AtomicInteger scrapes = new AtomicInteger();
		HttpServer server = serving("/q/metrics", (n) -> """
				# TYPE hikaricp_connections_active gauge
				hikaricp_connections_active{pool="default"} %d.0
				jvm_threads_live_threads 31.0
				""".formatted(n), scrapes);
		try {
			ServiceGauges gauges = ServiceGauges.at(uri(server))
				.gauges(Gauge.HIKARI_ACTIVE, Gauge.JVM_LIVE_THREADS)
				.every(Duration.ofMillis(50))
				.start();
			Thread.sleep(Duration.ofMillis(400));
			GaugeTimeline timeline = gauges.stop();

			assertThat(gauges.source()).hasValue("/q/metrics (Prometheus text)");
			assertThat(gauges.blind()).isEmpty();
			assertThat(timeline.max(Gauge.JVM_LIVE_THREADS)).hasValue(31.0);
			List<GaugeTimeline.Sample> active = timeline.series().get(Gauge.HIKARI_ACTIVE.label());
			assertThat(active).hasSizeGreaterThan(3);
			// Each round's figures come from one scrape, and each round takes one.
			assertThat(active.get(active.size() - 1).value()).isEqualTo(scrapes.get());
			assertThat(scrapes.get()).isEqualTo(active.size());
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void aTomcatWithoutItsThreadMetersIsNamedWithThePathItWasReadFrom() throws Exception {
		HttpServer server = serving("/actuator/prometheus", (n) -> """
				tomcat_sessions_created_sessions_total 0.0
				jvm_threads_live_threads 31.0
				""", new AtomicInteger());
		try {
			ServiceGauges gauges = ServiceGauges.at(uri(server)).start();
			Thread.sleep(Duration.ofMillis(300));
			gauges.stop();

			assertThat(gauges.source()).hasValue("/actuator/prometheus (Prometheus text)");
			assertThat(gauges.blind()).hasValue("Tomcat's thread meters: absent from /actuator/prometheus"
					+ " (Prometheus text) — set server.tomcat.mbeanregistry.enabled=true, or Tomcat's threads are"
					+ " read from thread dumps only");
		}
		finally {
			server.stop(0);
		}
	}

	/**
	 * A server that answers {@code path} with the text for its n-th scrape, 404 elsewhere
	 * (Actuator's JSON endpoint too).
	 */
	private static HttpServer serving(String path, IntFunction<String> text, AtomicInteger scrapes) throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/", (exchange) -> {
			boolean there = exchange.getRequestURI().getPath().equals(path);
			byte[] bytes = (there ? text.apply(scrapes.incrementAndGet()) : "{}").getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(there ? 200 : 404, bytes.length);
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
