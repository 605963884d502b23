package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.images.JavaRuntime;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.scenarios.lab.JdbcDriver;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;

/**
 * S3 (seed 001: {@code select sleep(1)} throttled at the carrier count): a caller on virtual threads with
 * 2 carriers runs {@code SELECT SLEEP(1)} for 8 users through a Hikari pool of 10. Connector/J 8.0.33
 * holds a monitor while it blocks in the socket read, which pins the virtual thread to its carrier on
 * JDK 21: throughput falls to carriers / 1 s, and the pinning probe finds the Connector/J frame.
 * Connector/J 9.x (ReentrantLocks) and JDK 25 (JEP 491) each remove the pinning. The driver version and
 * the Java image are chosen per container; the service is the same jar. JDK 25 can still pin for a few
 * milliseconds while a virtual thread waits for a class another thread is loading, so the unpinned rows
 * assert that no pinned event blocked in the driver, and the throughput that only unpinned waits reach.
 */
@Scenario(id = "S3", title = "JDBC pinning matrix: Connector/J 8.0 on JDK 21 pins virtual threads")
class JdbcPinningMatrixIT {

	static final Duration QUERY = Duration.ofSeconds(1);

	static final int CARRIERS = 2;

	static final int USERS = 8;

	static final int POOL = 10;

	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS).warmUp(Duration.ofSeconds(3)).forDuration(Duration.ofSeconds(8));

	static final Network network = KitResources.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@ParameterizedTest(name = "Java {0} + Connector/J {1}: pinned = {2}")
	@CsvSource({ "JAVA_21, MYSQL_CONNECTOR_J_8_0_33, true", "JAVA_21, MYSQL_CONNECTOR_J_9_7_0, false",
			"JAVA_25, MYSQL_CONNECTOR_J_8_0_33, false" })
	void connectorJPinsVirtualThreadsOnlyOnJava21WithItsOldLocks(JavaRuntime java, JdbcDriver driver, boolean pins,
			ScenarioReport report) {
		Ceiling ceiling = pins ? Ceiling.of(CARRIERS, "carrier threads (pinned for the whole query)", QUERY)
				: Ceiling.of(Math.min(USERS, POOL), "users (virtual threads unmount while they wait)", QUERY);
		try (LabServiceContainer caller = LabServiceContainer.caller(network)
			.withJavaRuntime(java)
			.withVirtualThreads(true)
			.withCarrierThreads(CARRIERS)
			.withMySql(mysql, driver, POOL);
				PinningProbe pinning = PinningProbe.on(caller)) {
			caller.start();
			pinning.start();

			LoadResult result = LOAD.named(java + " + " + driver).run(caller.uri("/db/sleep?seconds=" + QUERY.toSeconds()));

			PinningReport pinned = pinning.read();
			report.record(java + " + " + driver, result, ceiling, evidence(pinned));
			if (pins) {
				assertThat(pinned).as("%s on %s pins in the driver's socket read", driver, java)
					.hasPinnedAtLeast(USERS)
					.hasEveryPinInCode("com.mysql.cj.");
			}
			else {
				// JDK 25 still pins a virtual thread that waits for another thread to load a class (a 20 ms
				// event in Spring Boot's JarUrlClassLoader on a first query); the claim is about the driver.
				assertThat(pinned).as("%s on %s: the driver never blocks while pinned", driver, java)
					.hasNoPinsCausedBy("com.mysql.cj.");
			}
			assertThat(result).as("%s on %s: %s", driver, java, ceiling.explain()).hasNoErrors().hasThroughputNear(ceiling, 0.15);
		}
	}

	private static Map<String, Object> evidence(PinningReport pinned) {
		Map<String, Object> evidence = new LinkedHashMap<>();
		evidence.put("pinned events", pinned.count());
		evidence.put("pinned time", String.format("%.1f s", pinned.totalPinned().toMillis() / 1000.0));
		pinned.culprits().entrySet().stream().findFirst().ifPresent((top) -> evidence.put("top culprit", top.getKey()));
		evidence.put("recording", pinned.jfrFile().getFileName());
		return evidence;
	}

}
