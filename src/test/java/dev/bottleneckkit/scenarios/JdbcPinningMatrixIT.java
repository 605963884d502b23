package dev.bottleneckkit.scenarios;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.scenarios.lab.JdbcDriver;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * S3 (seed 001: {@code select sleep(1)} throttled at the carrier count): a caller on
 * virtual threads with 2 carriers runs {@code SELECT SLEEP(1)} for 8 users through a
 * Hikari pool of 10. Connector/J 8.0.33 holds a monitor while it blocks in the socket
 * read, which pins the virtual thread to its carrier on JDK 21: throughput falls to
 * carriers / 1 s, and the pinning probe finds the Connector/J frame. Connector/J 9.x
 * (ReentrantLocks) and JDK 25 (JEP 491) each remove the pinning. The driver version and
 * the Java image are chosen per container; the service is the same jar. JDK 25 can still
 * pin for a few milliseconds while a virtual thread waits for a class another thread is
 * loading, so the unpinned rows assert that no pinned event blocked in the driver, and
 * the throughput that only unpinned waits reach. {@code SLEEP(1)} is seed 001's query,
 * and carriers / 1 s its published cap, so the matrix keeps that clock.
 */
@Scenario(id = "S3", title = "JDBC pinning matrix: Connector/J 8.0 on JDK 21 pins virtual threads")
class JdbcPinningMatrixIT {

	static final Duration QUERY = Duration.ofSeconds(1);

	static final int CARRIERS = 2;

	static final int USERS = 8;

	static final int POOL = 10;

	/** 10 s: 20 answers at the pinned cap, 80 unpinned. */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(2))
		.forDuration(Duration.ofSeconds(10));

	static final String ROUTE = "/db/sleep?seconds=" + QUERY.toSeconds();

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final LabServiceContainer java21Driver8 = caller(JavaRuntime.JAVA_21, JdbcDriver.MYSQL_CONNECTOR_J_8_0_33);

	@Container
	static final LabServiceContainer java21Driver9 = caller(JavaRuntime.JAVA_21, JdbcDriver.MYSQL_CONNECTOR_J_9_7_0);

	@Container
	static final LabServiceContainer java25Driver8 = caller(JavaRuntime.JAVA_25, JdbcDriver.MYSQL_CONNECTOR_J_8_0_33);

	/** Probes are set up before their containers start: they add the JVM's JMX flags. */
	static final Map<LabServiceContainer, PinningProbe> pinning = Map.of(java21Driver8, PinningProbe.on(java21Driver8),
			java21Driver9, PinningProbe.on(java21Driver9), java25Driver8, PinningProbe.on(java25Driver8));

	static Stream<Arguments> cells() {
		return Stream.of(Arguments.of("JAVA_21", "MYSQL_CONNECTOR_J_8_0_33", java21Driver8, true),
				Arguments.of("JAVA_21", "MYSQL_CONNECTOR_J_9_7_0", java21Driver9, false),
				Arguments.of("JAVA_25", "MYSQL_CONNECTOR_J_8_0_33", java25Driver8, false));
	}

	// The containers are the class's, shared with the attribution tests: JUnit must not
	// close them after a row.
	@ParameterizedTest(name = "Java {0} + Connector/J {1}: pinned = {3}", autoCloseArguments = false)
	@MethodSource("cells")
	void connectorJPinsVirtualThreadsOnlyOnJava21WithItsOldLocks(String java, String driver, LabServiceContainer caller,
			boolean pins, ScenarioReport report) {
		try (PinningProbe probe = pinning.get(caller).start()) {
			ServiceGauges hikari = ServiceGauges.on(caller)
				.gauges(Gauge.HIKARI_USES, Gauge.HIKARI_USAGE_SECONDS)
				.start();

			LoadResult result = LOAD.named(java + " + " + driver).run(caller.uri(ROUTE));

			PinningReport pinned = probe.read();
			// W at the capping resource: pinned, how long a pinned event held its carrier
			// (JFR); else how long a query held its connection (Hikari's usage timer).
			Duration held = hikari.stop().meanTime(Gauge.HIKARI_USAGE_SECONDS, Gauge.HIKARI_USES).orElseThrow();
			Ceiling ceiling = pins
					? Ceiling.of(CARRIERS, "carrier threads (pinned for the whole query)",
							pinned.totalPinned().dividedBy(Math.max(1, pinned.count())))
					: Ceiling.of(Math.min(USERS, POOL), "users (virtual threads unmount while they wait)", held);
			report.record(java + " + " + driver, result, ceiling, evidence(held, pinned));
			if (pins) {
				assertThat(pinned).as("%s on %s pins in the driver's socket read", driver, java)
					.hasPinnedAtLeast(USERS)
					.hasEveryPinInCode("com.mysql.cj.");
			}
			else {
				// JDK 25 still pins a virtual thread that waits for another thread to
				// load a class (a 20 ms event under a class loader on a first query); the
				// claim is about the driver.
				assertThat(pinned).as("%s on %s: the driver never blocks while pinned", driver, java)
					.hasNoPinsCausedBy("com.mysql.cj.");
			}
			assertThat(result).as("%s on %s: %s", driver, java, ceiling.explain())
				.hasNoErrors()
				.hasThroughputNear(ceiling, withPercentage(15));
		}
	}

	private static LabServiceContainer caller(JavaRuntime runtime, JdbcDriver driver) {
		return LabServiceContainer.caller(network)
			.withJavaRuntime(runtime)
			.withVirtualThreads(true)
			.withCarrierThreads(CARRIERS)
			.withMySql(mysql, driver, POOL)
			.withName(
					"caller-java" + runtime.feature() + "-" + driver.name().toLowerCase(Locale.ROOT).replace('_', '-'));
	}

	private static Map<String, Object> evidence(Duration held, PinningReport pinned) {
		Map<String, Object> evidence = ScenarioReport.evidence("W (a query's connection, Hikari usage)",
				held.toMillis() + " ms", "pinned events", pinned.count(), "pinned time",
				String.format("%.1f s", pinned.totalPinned().toMillis() / 1000.0));
		pinned.culprits().entrySet().stream().findFirst().ifPresent((top) -> evidence.put("top culprit", top.getKey()));
		evidence.put("recording", pinned.jfrFile().getFileName());
		return evidence;
	}

	/**
	 * Attribution: a sweep of the pinned and the unpinned caller, with the pinning probe
	 * attached.
	 */
	@Nested
	class Attribution {

		@Test
		void aSweepOfConnectorJ8OnJava21NamesPinnedCarriers(ScenarioReport report) {
			SweepResult sweep = Sweep.of(java21Driver8, ROUTE)
				.named("S3 Java 21 + Connector/J 8.0.33")
				.upToUsers(8)
				.run();

			report.record("sweep: Java 21 + Connector/J 8.0.33", sweep);
			assertThat(sweep).isCappedBy(Resource.CARRIER_THREADS).hasCeilingNearItsModel(withPercentage(20));
			assertThat(((Verdict.Capped) sweep.verdict()).where()).as("the pinned frame is the driver's")
				.hasValueSatisfying((frame) -> assertThat(frame).startsWith("com.mysql.cj."));
		}

		@Test
		void aSweepOfConnectorJ9FindsNoPinning(ScenarioReport report) {
			SweepResult sweep = Sweep.of(java21Driver9, ROUTE)
				.named("S3 Java 21 + Connector/J 9.7.0")
				.upToUsers(8)
				.run();

			report.record("sweep: Java 21 + Connector/J 9.7.0", sweep);
			assertThat(sweep).isNotCappedBy(Resource.CARRIER_THREADS).hasNoCap();
		}

	}

}
