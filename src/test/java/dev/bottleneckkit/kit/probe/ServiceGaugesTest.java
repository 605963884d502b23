package dev.bottleneckkit.kit.probe;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

import dev.bottleneckkit.kit.load.ClosedLoopLoad;
import dev.bottleneckkit.kit.load.LoadResult;
import dev.bottleneckkit.lab.LabApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gauges probe against a Spring Boot app in this JVM: the lab as caller and downstream at once, its
 * caller on Spring Boot's default HTTP pool (5 per route) under 12 users.
 */
@SpringBootTest(classes = LabApplication.class, webEnvironment = WebEnvironment.DEFINED_PORT)
@ActiveProfiles({ "caller", "downstream" })
class ServiceGaugesTest {

	static final int USERS = 12;

	static final int PORT = freePort();

	@DynamicPropertySource
	static void selfAsDownstream(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> PORT);
		registry.add("lab.caller.downstream-url", () -> "http://localhost:" + PORT);
	}

	@Test
	void samplesPoolAndThreadGaugesWhileTheLoadRuns() {
		URI app = URI.create("http://localhost:" + PORT);
		ServiceGauges gauges = ServiceGauges.of(app).start();

		LoadResult result = ClosedLoopLoad.users(USERS).warmUp(Duration.ofMillis(500)).forDuration(Duration.ofSeconds(2))
			.run(app.resolve("/call/sleep?latency=300ms"));
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
		assertThat(timeline.max(Gauge.LAB_IN_FLIGHT)).as("the downstream's work requests: the pool's 5").hasValue(5);
		assertThat(timeline.has(Gauge.VIRTUAL_MOUNTED)).as("the scheduler MXBean exists from JDK 24 on")
			.isEqualTo(Runtime.version().feature() >= 24);
		assertThat(timeline.series().get(Gauge.HTTP_POOL_LEASED.label())).as("one sample per 250 ms over ~2.5 s")
			.hasSizeGreaterThanOrEqualTo(6);
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
