package com.example.guards;

import java.util.List;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;

/**
 * A team's guard of its stock route, as it stands in its repository: the image under test (the pull request's) sweeps
 * /stock; the pipeline names main's image once (-Dbottleneck.against=IMAGE) and the sweep measures both side by side.
 * Nothing here names the base: the pool each has is what each image sets.
 */
@Scenario(id = "T4", title = "The pull request's stock route against main's, side by side")
class StockGuardIT {

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final ServiceContainer stock = new ServiceContainer(System.getenv().getOrDefault("STOCK_IMAGE", "example/stock:1.0.0"))
		.withNetwork(network)
		.withSpringProperty("stock.quotes-url", "http://quotes.invalid:8080")
		.withSpringProperty("spring.datasource.url",
				"jdbc:mysql://mysql:3306/" + mysql.getDatabaseName() + "?useSSL=false&allowPublicKeyRetrieval=true")
		.withSpringProperty("spring.datasource.username", mysql.getUsername())
		.withSpringProperty("spring.datasource.password", mysql.getPassword())
		.dependsOn(mysql);

	@Test
	void theStockRouteHasNotRegressedAgainstMain(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/stock").named("guard /stock").upToUsers(16).run();

		report.record("guard: /stock against main", sweep);
		assertThat(sweep).hasNotRegressedAgainstItsBase();
	}

	/**
	 * The price list's signature, on the CPU alone: a change that makes it 10 % costlier reads as a ceiling 10 % lower,
	 * though both images share the machine's two cores and each has its own JIT. Guarded at the default 2 %: two fresh
	 * JVMs of one image stay about 1.2 % apart on such a route, so the guard takes its blocks on two pairs of JVMs and
	 * its interval holds that spread, ±2.6 % however many blocks. That tells a 10 % change red (0.909 × 1.075 < 0.98),
	 * and never tells green at 2 %: a team that wants green on this route tolerates 4 %
	 * (Sweep.tolerating).
	 */
	@Test
	void theSignatureRouteHasNotRegressedAgainstMain(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/signature").named("guard /signature").upToUsers(16).run();

		report.record("guard: /signature against main", sweep);
		assertThat(sweep).hasNotRegressedAgainstItsBase();
	}

	/**
	 * The service's routes at one start of both images: a pool change shows on the route that takes the pool, and the
	 * others say what the run could resolve on them.
	 */
	@Test
	void theServicesRoutesHaveNotRegressedAgainstMain(ScenarioReport report) {
		List<SweepResult> routes = Sweep.of(stock, "/stock", "/label", "/report").named("guard").upToUsers(8).runEach();

		routes.forEach((route) -> report.record(route.name() + " against main", route));
		routes.forEach((route) -> assertThat(route).hasNotRegressedAgainstItsBase());
	}

}
