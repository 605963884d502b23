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

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * A team's reactive gateway (Spring Boot 4.1, WebFlux on Reactor Netty, stock starters, no kit code inside) with one
 * route still calling the stock service through a blocking client, on one small machine without CPU limits, started
 * cold: the blocking call holds the event loop that serves the request, so the loops cap the route, not any pool.
 */
@Scenario(id = "T7", title = "A reactive gateway: a blocking call holds the event loops")
class GatewayServiceCapsIT {

	static final Network network = KitContainers.newNetwork();

	/** The stock service: 200 ms an answer, as many at once as come. */
	@Container
	static final DownstreamContainer stock = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/stock").latency(Duration.ofMillis(200)).bodyBytes(64))
		.withNetwork(network)
		.withNetworkAliases("stock")
		.withName("stock");

	@Container
	static final ServiceContainer gateway = new ServiceContainer(System.getenv().getOrDefault("GATEWAY_IMAGE", "example/gateway:1.0.0"))
		.withNetwork(network)
		.dependsOn(stock);

	/**
	 * Reactor Netty's event loops (as many as the cores, at least 4) each held for the stock service's 200 ms: the
	 * JDK's client opens one connection a loop, flat while the users double, and no pool of it is named. The loops'
	 * own setting, twice as many, doubles the ceiling.
	 */
	@Test
	void theBlockingRouteIsCappedByTheEventLoops(ScenarioReport report) {
		SweepResult sweep = Sweep.of(gateway, "/availability").named("gateway /availability").upToUsers(32).confirming().run();

		report.record("sweep: /availability (a blocking JDK HttpClient call on WebFlux's event loops)", sweep);
		assertThat(sweep).isCappedBy(Resource.EVENT_LOOPS).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep).isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).contains("reactor-http-");
	}

}
