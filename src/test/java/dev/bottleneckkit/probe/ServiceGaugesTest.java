package dev.bottleneckkit.probe;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.fixture.GaugedApp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gauges probe against a Spring Boot app in this JVM that calls itself through
 * HttpClient 5's default pool (5 per route) under 12 users.
 */
@SpringBootTest(classes = GaugedApp.class, webEnvironment = WebEnvironment.DEFINED_PORT, properties = {
		"management.endpoints.web.exposure.include=metrics", "server.tomcat.mbeanregistry.enabled=true" })
class ServiceGaugesTest {

	static final int USERS = 12;

	static final int PORT = freePort();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> PORT);
	}

	@Test
	void samplesPoolAndThreadGaugesWhileTheLoadRuns() {
		URI app = URI.create("http://localhost:" + PORT);
		ServiceGauges gauges = ServiceGauges.at(app).start();

		LoadResult result = ClosedLoopLoad.users(USERS)
			.warmUp(Duration.ofMillis(500))
			.forDuration(Duration.ofSeconds(2))
			.run(app.resolve("/call?ms=300"));
		GaugeTimeline timeline = gauges.stop();

		assertThat(result.errorCount()).isZero();
		assertThat(timeline.max(Gauge.HTTP_POOL_LEASED)).as("leased connections never pass the default 5 per route")
			.hasValue(5);
		assertThat(timeline.max(Gauge.HTTP_POOL_PENDING).orElseThrow()).as("the other users wait for a connection")
			.isGreaterThanOrEqualTo(USERS - 5 - 2);
		assertThat(timeline.max(Gauge.TOMCAT_BUSY).orElseThrow()).as("busy Tomcat threads: 12 callers, 5 downstream")
			.isGreaterThanOrEqualTo(USERS);
		assertThat(timeline.min(Gauge.TOMCAT_MAX)).as("server.tomcat.threads.max").hasValue(200);
		assertThat(timeline.has(Gauge.JVM_LIVE_THREADS)).as("JVM threads are always there").isTrue();
		assertThat(timeline.has(Gauge.HIKARI_ACTIVE)).as("no DataSource, no Hikari gauges").isFalse();
		assertThat(timeline.has(Gauge.VIRTUAL_MOUNTED)).as("a meter the service does not bind is skipped").isFalse();
		// A time series, whatever the sampler's pace on a cold JVM: more than one sample,
		// in time order.
		assertThat(timeline.series().get(Gauge.HTTP_POOL_LEASED.label())).as("samples of the pool over the run")
			.hasSizeGreaterThanOrEqualTo(2)
			.isSortedAccordingTo(java.util.Comparator.comparing(GaugeTimeline.Sample::at));
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
