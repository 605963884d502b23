package com.example.guards;

import java.time.Duration;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
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

	/** 100 ms queries on 3 connections: 30 rps, twice that with 6. */
	@Test
	void theParcelRouteIsCappedByAgroal(ScenarioReport report) {
		SweepResult sweep = Sweep.of(fulfilment, "/parcels").named("fulfilment /parcels").upToUsers(16).confirming().run();

		report.record("sweep: /parcels (a 100 ms query per request, Agroal 3)", sweep);
		assertThat(sweep).isCappedBy(Resource.AGROAL_POOL)
			.hasCeilingNearItsModel(withPercentage(10))
			.isConfirmedWithin(withPercentage(15));
	}

	/** 250 ms quotes on 8 worker threads: 32 rps, twice that with 16. */
	@Test
	void theRateRouteIsCappedByTheWorkerPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(fulfilment, "/rates").named("fulfilment /rates").upToUsers(32).confirming().run();

		report.record("sweep: /rates (a 250 ms quote per request on a worker thread)", sweep);
		assertThat(sweep).isCappedBy(Resource.QUARKUS_WORKER_THREADS)
			.hasCeilingNearItsModel(withPercentage(10))
			.isConfirmedWithin(withPercentage(15));
	}

	/** 50 ms of blocking on each of 2 event loops: 40 rps, twice that with 4. */
	@Test
	void theTrackingRouteIsCappedByItsBlockedEventLoops(ScenarioReport report) {
		SweepResult sweep = Sweep.of(fulfilment, "/tracking").named("fulfilment /tracking").upToUsers(16).confirming().run();

		report.record("sweep: /tracking (50 ms blocking an event loop)", sweep);
		assertThat(sweep).isCappedBy(Resource.EVENT_LOOPS)
			.hasCeilingNearItsModel(withPercentage(10))
			.isConfirmedWithin(withPercentage(15));
	}

	/** 100 ms asleep in a monitor on a virtual thread (Java 21 pins its carrier): 2 carriers, 20 rps; 4, 40 rps. */
	@Test
	void theLabelRouteIsCappedByPinnedCarriers(ScenarioReport report) {
		SweepResult sweep = Sweep.of(fulfilment, "/labels").named("fulfilment /labels").upToUsers(16).confirming().run();

		report.record("sweep: /labels (@RunOnVirtualThread, 100 ms pinned)", sweep);
		assertThat(sweep).isCappedBy(Resource.CARRIER_THREADS)
			.hasCeilingNearItsModel(withPercentage(10))
			.isConfirmedWithin(withPercentage(15));
	}

}
