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
	 * own setting, half as many, halves the ceiling. Half, not twice: on two shared cores a raise may not be there to
	 * give. Beside a busy loop on one core, twice the loops read 33.3 rps where twice the ceiling promised 38.7: each
	 * loop also waits for the one free core, so a hold grew from 0.22 s to 0.24 s, which the prediction does not
	 * carry. Fewer loops do less at once and wait for no core.
	 */
	@Test
	void theBlockingRouteIsCappedByTheEventLoops(ScenarioReport report) {
		int loops = Math.max(4, Runtime.getRuntime().availableProcessors());
		Knob halved = Knob.of("event loops " + loops / 2, 0.5,
				(service) -> service.withJvmOptions("-Dreactor.netty.ioWorkerCount=" + loops / 2));
		SweepResult sweep = Sweep.of(gateway, "/availability").named("gateway /availability").upToUsers(32).confirming(halved).run();

		report.record("sweep: /availability (a blocking JDK HttpClient call on WebFlux's event loops)", sweep);
		assertThat(sweep).isCappedBy(Resource.EVENT_LOOPS).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep).isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).contains("reactor-http-");
	}

	/**
	 * The fix, the same call through WebClient: the event loop is free while the stock service answers. The loops that
	 * held the blocking call for its 0.2 s allowed loops / W₁ (4 / 0.2 s = 20 rps on two cores); the reactive route
	 * passes twice that with no cap below it, and no event loop is named.
	 */
	@Test
	void theReactiveRouteFreesTheEventLoops(ScenarioReport report) {
		SweepResult sweep = Sweep.of(gateway, "/availability-reactive").named("gateway /availability-reactive").upToUsers(16).run();

		report.record("sweep: /availability-reactive (the same call through WebClient)", sweep);
		// Reactor Netty's loops: as many as the cores, at least 4; what they allowed the blocking call, read on this sweep.
		int loops = Math.max(4, Runtime.getRuntime().availableProcessors());
		double heldLoops = loops / (sweep.oneUserLatency().toNanos() / 1e9);
		assertThat(sweep).isNotCappedBy(Resource.EVENT_LOOPS).hasNoCapBelow(2 * heldLoops);
	}

}
