package dev.bottleneckkit.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Micrometer's meters found under the names its Prometheus naming gives them: in a scrape
 * of the lab service on Spring Boot 4.1.1 (Micrometer 1.17.1, taken from its
 * {@code /actuator/prometheus}), and in lines written as Micrometer writes Hikari's and
 * HttpClient's.
 */
class PrometheusTextTest {

	@Test
	void aSpringBootScrapeHasTomcatsAndTheJvmsGaugesUnderTheirUnits() throws IOException {
		PrometheusText scrape = PrometheusText.parse(resource("boot-4.1-actuator-prometheus.txt"));

		assertThat(scrape.value(Gauge.TOMCAT_BUSY)).hasValue(1.0);
		assertThat(scrape.value(Gauge.TOMCAT_MAX)).hasValue(200.0);
		assertThat(scrape.value(Gauge.TOMCAT_CONNECTIONS)).hasValue(2.0);
		assertThat(scrape.value(Gauge.JVM_LIVE_THREADS)).hasValue(23.0);
		assertThat(scrape.value(Gauge.VIRTUAL_MOUNTED)).hasValue(0.0);
		assertThat(scrape.value(Gauge.HIKARI_ACTIVE)).isEmpty();
		assertThat(scrape.has("tomcat.sessions.created")).isTrue();
		assertThat(scrape.has("tomcat.threads.busy")).isTrue();
		assertThat(scrape.has("hikaricp.connections")).isFalse();
	}

	@Test
	void aTimersCountAndTotalAreSummedOverItsSeriesAndItsMaxIsTheLargest() {
		PrometheusText scrape = PrometheusText.parse("""
				# HELP hikaricp_connections_usage_seconds Connection usage time
				# TYPE hikaricp_connections_usage_seconds summary
				hikaricp_connections_usage_seconds_count{pool="orders"} 120
				hikaricp_connections_usage_seconds_sum{pool="orders"} 2.4
				hikaricp_connections_usage_seconds_count{pool="audit"} 30
				hikaricp_connections_usage_seconds_sum{pool="audit"} 0.6
				hikaricp_connections_usage_seconds_max{pool="orders"} 0.05
				hikaricp_connections_usage_seconds_max{pool="audit"} 0.08
				hikaricp_connections_active{pool="orders"} 10.0
				hikaricp_connections_max{pool="orders"} 10.0
				""");

		assertThat(scrape.value(Gauge.HIKARI_USES)).hasValue(150.0);
		assertThat(scrape.value(Gauge.HIKARI_USAGE_SECONDS)).hasValue(3.0);
		assertThat(scrape.value(Gauge.statistic("use.max", "hikaricp.connections.usage", "MAX"))).hasValue(0.08);
		assertThat(scrape.value(Gauge.HIKARI_ACTIVE)).hasValue(10.0);
		assertThat(scrape.value(Gauge.HIKARI_MAX)).hasValue(10.0);
	}

	@Test
	void aTagPicksItsSeriesAndLabelsMayHoldQuotesCommasAndBraces() {
		PrometheusText scrape = PrometheusText
			.parse("""
					httpcomponents_httpclient_pool_total_connections{httpclient="orders, \\"v2\\" {eu}",state="leased"} 5.0 1732650000000
					httpcomponents_httpclient_pool_total_connections{httpclient="orders, \\"v2\\" {eu}",state="available"} 0.0
					httpcomponents_httpclient_pool_total_pending{httpclient="orders, \\"v2\\" {eu}"} 35.0
					not a series
					jvm_threads_virtual_live{scheduling_status="queued"} +Inf
					""");

		assertThat(scrape.size()).isEqualTo(4);
		assertThat(scrape.value(Gauge.HTTP_POOL_LEASED)).hasValue(5.0);
		assertThat(scrape.value(Gauge.HTTP_POOL_PENDING)).hasValue(35.0);
		assertThat(scrape.value(Gauge.VIRTUAL_QUEUED)).hasValue(Double.POSITIVE_INFINITY);
		assertThat(scrape.value(Gauge.VIRTUAL_MOUNTED)).isEmpty();
	}

	private static String resource(String name) throws IOException {
		try (InputStream in = PrometheusTextTest.class.getResourceAsStream(name)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
