package com.example.guards;

import java.time.Duration;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * A team's Quarkus service (stock extensions: REST, REST client, Agroal with MariaDB's driver, Micrometer's
 * Prometheus registry; no kit code inside): each route is capped by the part of Quarkus it runs on, named with its
 * model and confirmed by that part's own setting: Agroal, the worker pool, the event loops, and the carriers a
 * virtual-thread route pins.
 */
@Scenario(id = "T5", title = "A stock Quarkus service: Agroal, its worker pool, its event loops, pinned carriers")
class FulfilmentServiceCapsIT {

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	/** The carrier's quote service: 250 ms a quote. */
	@Container
	static final DownstreamContainer carrier = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/quote").latency(Duration.ofMillis(250)).bodyBytes(128))
		.withNetwork(network)
		.withNetworkAliases("carrier");

	@Container
	static final ServiceContainer fulfilment = new ServiceContainer(System.getenv().getOrDefault("FULFILMENT_IMAGE", "example/fulfilment:1.0.0"))
		.withNetwork(network)
		.withHealthPath("/q/health/ready")
		.withEnv("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:mariadb://mysql:3306/" + mysql.getDatabaseName())
		.withEnv("QUARKUS_DATASOURCE_USERNAME", mysql.getUsername())
		.withEnv("QUARKUS_DATASOURCE_PASSWORD", mysql.getPassword())
		.withEnv("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "3")
		.withEnv("QUARKUS_THREAD_POOL_MAX_THREADS", "8")
		.withEnv("QUARKUS_VERTX_EVENT_LOOPS_POOL_SIZE", "2")
		.dependsOn(mysql, carrier);

	/**
	 * The same service with a worker pool of 64, more than the pickups' bulkhead lets in even doubled: SmallRye Fault
	 * Tolerance's {@code @Bulkhead} at its defaults (10 at once, no queue) caps /pickups by refusing.
	 */
	@Container
	static final ServiceContainer pickups = new ServiceContainer(System.getenv().getOrDefault("FULFILMENT_IMAGE", "example/fulfilment:1.0.0"))
		.withName("fulfilment-pickups")
		.withNetwork(network)
		.withHealthPath("/q/health/ready")
		.withEnv("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:mariadb://mysql:3306/" + mysql.getDatabaseName())
		.withEnv("QUARKUS_DATASOURCE_USERNAME", mysql.getUsername())
		.withEnv("QUARKUS_DATASOURCE_PASSWORD", mysql.getPassword())
		.withEnv("QUARKUS_THREAD_POOL_MAX_THREADS", "64")
		.dependsOn(mysql, carrier);

	/**
	 * A bulkhead of another library than Resilience4j that refuses without waiting: beyond 10 pickups at once the
	 * bulkhead throws and Quarkus answers 500 at once. It is named from the failures (their count, status and share)
	 * and the 10 requests that hold it, 10 / 0.25 s = 40 rps; its own setting, 20, doubles it.
	 */
	@Test
	void thePickupRouteIsCappedByItsBulkheadThatRefuses(ScenarioReport report) {
		SweepResult sweep = Sweep.of(pickups, "/pickups")
			.named("fulfilment /pickups")
			.upToUsers(32)
			.confirming(Knob.of("pickups bulkhead 20", 2, (service) -> service
				.withJvmOptions("-Dcom.example.fulfilment.FulfilmentResource/pickup/Bulkhead/value=20")))
			.run();

		report.record("sweep: /pickups (SmallRye Fault Tolerance's @Bulkhead at its defaults, 250 ms quotes)", sweep);
		assertThat(sweep).isCappedBy(Resource.WAIT_SITE)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("beyond 10 at once, requests fail with http-500")
			.doesNotContain("connection pool");
	}

	/** 100 ms queries on 3 connections: 30 rps, twice that with 6. */
	@Test
	void theParcelRouteIsCappedByAgroal(ScenarioReport report) {
		sweepConfirming(report, "/parcels", 16, "a 100 ms query per request, Agroal 3", Resource.AGROAL_POOL);
	}

	/** 250 ms quotes on 8 worker threads: 32 rps, twice that with 16. */
	@Test
	void theRateRouteIsCappedByTheWorkerPool(ScenarioReport report) {
		sweepConfirming(report, "/rates", 32, "a 250 ms quote per request on a worker thread",
				Resource.QUARKUS_WORKER_THREADS);
	}

	/** 50 ms of blocking on each of 2 event loops: 40 rps, twice that with 4. */
	@Test
	void theTrackingRouteIsCappedByItsBlockedEventLoops(ScenarioReport report) {
		sweepConfirming(report, "/tracking", 16, "50 ms blocking an event loop", Resource.EVENT_LOOPS);
	}

	/** 100 ms asleep in a monitor on a virtual thread (Java 21 pins its carrier): 2 carriers, 20 rps; 4, 40 rps. */
	@Test
	void theLabelRouteIsCappedByPinnedCarriers(ScenarioReport report) {
		sweepConfirming(report, "/labels", 16, "@RunOnVirtualThread, 100 ms pinned", Resource.CARRIER_THREADS);
	}

	/**
	 * Sweeps {@code route} up to {@code users}, names {@code cap} with its model within 10 %, then starts the service
	 * again with that cap's Quarkus setting doubled (the kit knows each one's variable) and finds the ceiling moved
	 * as predicted, within 15 %.
	 */
	private static void sweepConfirming(ScenarioReport report, String route, int users, String what, Resource cap) {
		SweepResult sweep = Sweep.of(fulfilment, route).named("fulfilment " + route).upToUsers(users).confirming().run();

		report.record("sweep: " + route + " (" + what + ")", sweep);
		assertThat(sweep).isCappedBy(cap).hasCeilingNearItsModel(withPercentage(10)).isConfirmedWithin(withPercentage(15));
	}

}
