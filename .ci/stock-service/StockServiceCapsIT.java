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
import dev.bottleneckkit.sweep.Verdict;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * A team's stock Spring Boot service (plain starters, no kit code inside), its database, its quote service behind
 * a slow network: the sweep of each route names what caps it, with Little's law for it.
 */
@Scenario(id = "T1", title = "A stock Spring Boot service: what caps each route")
class StockServiceCapsIT {

	/** Hikari's pool: 4 unless the pipeline says otherwise (main had 6, say, before a change made it 4). */
	static final int HIKARI_POOL = Integer.parseInt(System.getenv().getOrDefault("STOCK_HIKARI_POOL", "4"));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	/** The quote service: 400 ms a quote, reached through Toxiproxy, which adds 100 ms. */
	@Container
	static final DownstreamContainer quotes = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/quote").latency(Duration.ofMillis(400)).bodyBytes(256))
		.withNetwork(network)
		.withNetworkAliases("quotes");

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	@Container
	static final ServiceContainer stock = new ServiceContainer(System.getenv().getOrDefault("STOCK_IMAGE", "example/stock:1.0.0"))
		.withNetwork(network)
		.withSpringProperty("stock.quotes-url", "http://toxiproxy:8666")
		.withSpringProperty("spring.datasource.url",
				"jdbc:mysql://mysql:3306/" + mysql.getDatabaseName() + "?useSSL=false&allowPublicKeyRetrieval=true")
		.withSpringProperty("spring.datasource.username", mysql.getUsername())
		.withSpringProperty("spring.datasource.password", mysql.getPassword())
		.withSpringProperty("spring.datasource.hikari.maximum-pool-size", HIKARI_POOL)
		.withSpringProperty("server.tomcat.threads.max", 8)
		.dependsOn(mysql);

	@BeforeAll
	static void slowNetworkToTheQuotes() throws Exception {
		KitContainers.proxy(toxiproxy, "quotes", 8666, "quotes:8080")
			.toxics()
			.latency("slow-network", ToxicDirection.DOWNSTREAM, 100);
	}

	/**
	 * A bundle's two quotes fetched at once on the team's own fixed pool of 3 threads named quotes-*: the pool is full
	 * and the request threads wait on its work. Below the cap a request kept 2 of its threads busy for the quote's
	 * 0.5 s, so 3 threads give 3 / (2 × 0.5 s) = 3 rps. The team's own setting, 6 threads, doubles it.
	 */
	@Test
	void theBundleRouteIsCappedByTheTeamsOwnPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/bundle")
			.named("stock /bundle")
			.upToUsers(16)
			.confirming(Knob.springProperty("quotes pool 6", "stock.bundle.threads", 6, 2))
			.run();

		report.record("sweep: /bundle (two quotes at once on a fixed pool of 3)", sweep);
		assertThat(sweep).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("quotes-*");
	}

	/**
	 * Two suppliers' quotes fetched at once on Spring's own task executor, the applicationTaskExecutor Boot configures
	 * (4 threads named task-* in the service's application.properties): every thread busy, the request threads waiting
	 * on its work. A request needs 2 of its threads for the quote's 0.5 s, so 4 / (2 × 0.5 s) = 4 rps. Its executor.*
	 * meters name the bean, and its knob is Spring's own: confirming() turns spring.task.execution.pool.* to 8.
	 */
	@Test
	void theCompareRouteIsCappedBySpringsTaskExecutor(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/compare").named("stock /compare").upToUsers(16).confirming().run();

		report.record("sweep: /compare (two quotes at once on Spring's task executor of 4)", sweep);
		assertThat(sweep).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("Spring's task executor applicationTaskExecutor (task-*)");
	}

	/**
	 * A label drawn by one of the team's 3 renderers, 200 ms each: a pool the kit cannot know, so the test declares it
	 * by the two gauges the service publishes. It is named in the team's words with 3 / 0.2 s = 15 rps, and the
	 * team's own setting, 6 renderers, doubles it. Undeclared, the same readings are unexplained, with the request threads
	 * the dumps saw waiting on the renderers' queue.
	 */
	@Test
	void theLabelRouteIsCappedByTheTeamsOwnRenderers(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/label")
			.named("stock /label")
			.upToUsers(16)
			.knowing(Resource.own("renderers").limitFrom("stock.renderers.size").inUseFrom("stock.renderers.busy"))
			.confirming(Knob.springProperty("renderers 6", "stock.renderers", 6, 2))
			.run();

		report.record("sweep: /label (one of 3 renderers for 200 ms)", sweep);
		assertThat(sweep).isCappedBy(Resource.OWN).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("renderers (the team's own, declared by the test): 3/3 in use");
		// Undeclared, no kind knows them: the same readings name where the requests waited and who held the renderers,
		// with the same model, and put no pool's name on it.
		assertThat(((Verdict.Capped) sweep.verdict()).readings().get(Verdict.Capped.UNDECLARED))
			.contains("requests wait in `com.example.stock.StockApplication.label` (a queue)")
			.contains(": 3 holders, request threads past `com.example.stock.StockApplication.label`")
			.doesNotContain("connection pool");
	}

	/**
	 * The same renderers with nothing in the test: the project's own kind ({@code RenderersKind}, registered once in
	 * {@code META-INF/services/dev.bottleneckkit.sweep.Kind}) says where their waiters wait and what sizes them. The dumps
	 * find the 3 holders and the model, 3 / W₁; the kind's setting, 6 renderers, doubles the ceiling.
	 */
	@Test
	void theLabelRouteIsNamedByTheTeamsOwnKind(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/label").named("stock /label, the team's kind").upToUsers(16).confirming().run();

		report.record("sweep: /label (the renderers named by the project's own kind)", sweep);
		assertThat(sweep).isCappedBy(Resource.OWN).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line())
			.contains("renderers (the team's own, its kind RenderersKind): requests wait in"
					+ " `com.example.stock.StockApplication.label` (a queue)")
			.contains(": 3 holders");
	}

	@Test
	void thePriceRouteIsCappedByHttpClientsDefaultPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/price").named("stock /price").upToUsers(16).run();

		report.record("sweep: /price (a quote per request)", sweep);
		assertThat(sweep).isCappedBy(Resource.HTTP_CLIENT_POOL).hasCeilingNearItsModel(withPercentage(15));
	}

	/** Hikari caps it; doubling the pool doubles the ceiling; the smallest pool for 24 rps is found in one start. */
	@Test
	void theStockRouteIsCappedByHikari(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/stock").named("stock /stock").upToUsers(16).confirming().reaching(24).run();

		report.record("sweep: /stock (a 250 ms query per request)", sweep);
		assertThat(sweep).isCappedBy(Resource.HIKARI_POOL)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10))
			.reachedItsTargetWithin(2);
	}

	@Test
	void theReportRouteIsCappedByTomcatsThreads(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/report").named("stock /report").upToUsers(32).confirming().run();

		report.record("sweep: /report (300 ms on the request thread)", sweep);
		assertThat(sweep).isCappedBy(Resource.TOMCAT_THREADS).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
	}

	/**
	 * The connection is held for the query only, not for the rendering after it: Hikari's usage timer gives the hold
	 * (100 ms), where the request's latency (150 ms) would put the ceiling a third too low.
	 */
	@Test
	void theInvoiceRouteIsCappedByHikariAtTheHoldOfAUse(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/invoice").named("stock /invoice").upToUsers(16).run();

		report.record("sweep: /invoice (a 100 ms query, then 50 ms rendering without the connection)", sweep);
		// With the request's latency for its hold the model would read 4 / 0.15 s = 26.7 rps, a third below.
		assertThat(sweep).isCappedBy(Resource.HIKARI_POOL).hasCeilingNearItsModel(withPercentage(10));
	}

	/**
	 * A count query and a page query, each in its own transaction: a request takes the pool twice. Its model is the
	 * pool over what a request holds it for, 2 uses × 50 ms (4 / 0.100 s = 40 rps): one use's hold would read 80 rps,
	 * the request's latency 27. Doubling the pool lifts the ceiling to Tomcat's 8 threads over W₁ (53 rps).
	 */
	@Test
	void theOrdersRouteTakesHikariTwiceARequest(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/orders").named("stock /orders").upToUsers(16).confirming().run();

		report.record("sweep: /orders (two 50 ms queries in two transactions, then 50 ms rendering)", sweep);
		assertThat(sweep).isCappedBy(Resource.HIKARI_POOL)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("2 uses a request");
	}

	/** A knob of a resource that is not the cap leaves the ceiling where it was: raising Hikari where Tomcat caps. */
	@Test
	void raisingHikariWhereTomcatCapsDoesNotMoveTheCeiling(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/report")
			.named("stock /report, Hikari raised")
			.upToUsers(32)
			.confirming(Knob.springProperty("Hikari 16", "spring.datasource.hikari.maximum-pool-size", 16, 2))
			.run();

		report.record("sweep: /report with Hikari raised instead of Tomcat", sweep);
		assertThat(sweep).isNotConfirmed();
		assertThat(sweep.verdict().cap()).as("the sweep alone still names Tomcat's threads")
			.hasValue(Resource.TOMCAT_THREADS);
	}

}
