package com.example.guards;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * The seeds' headline at real speed on a team's own service: Spring Boot 3.5 on Java 21 with virtual threads,
 * Connector/J 8.0.33 (its socket reads inside {@code synchronized}), Hikari at its 10 connections, and the database
 * 15 ms away behind Toxiproxy. Each of the basket's two queries pins its carrier for the network's round trip, so the
 * two carriers, not the ten connections, cap the route.
 */
@Scenario(id = "T10", title = "The database a network away: pinned carriers at millisecond speed")
class ShopDatabaseOverTheNetworkIT {

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	/** Started once the database's proxy is there. */
	static final ServiceContainer shop = new ServiceContainer(System.getenv().getOrDefault("SHOP_IMAGE", "example/shop:1.0.0"))
		.withNetwork(network)
		.withSpringProperty("spring.datasource.url",
				"jdbc:mysql://toxiproxy:8666/" + mysql.getDatabaseName() + "?useSSL=false&allowPublicKeyRetrieval=true")
		.withSpringProperty("spring.datasource.username", mysql.getUsername())
		.withSpringProperty("spring.datasource.password", mysql.getPassword());

	@BeforeAll
	static void theDatabaseFifteenMillisecondsAway() throws Exception {
		KitContainers.proxy(toxiproxy, "mysql", 8666, "mysql:3306")
			.toxics()
			.latency("network", ToxicDirection.DOWNSTREAM, 15);
		shop.start();
	}

	@AfterAll
	static void stopTheShop() {
		shop.stop();
	}

	/**
	 * Two queries of one round trip each, 15 ms: a request pins a carrier for about 30 ms, so 2 carriers give some
	 * 60 rps whatever Hikari's 10 connections allow; 4 carriers double it. The verdict names the carriers and the
	 * driver's frame that pins them, never the connections they hold.
	 */
	@Test
	void theBasketRouteIsCappedByItsPinnedCarriers(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/basket").named("shop /basket").upToUsers(32).confirming().run();

		report.record("sweep: /basket (two queries 15 ms away, Connector/J 8.0.33 on Java 21)", sweep);
		assertThat(sweep).isCappedBy(Resource.CARRIER_THREADS)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("com.mysql.cj.").doesNotContain("connection pool");
	}

}
