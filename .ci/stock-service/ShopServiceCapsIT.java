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
 * A team's service at real speed (Spring Boot 3.5, Java 21, virtual threads, stock starters, no kit code inside),
 * its database and two services it calls, on one small machine without CPU limits, started cold: the sweep of each
 * route names what caps it, with the model that explains the ceiling.
 */
@Scenario(id = "T2", title = "A service at real speed: what caps each route")
class ShopServiceCapsIT {

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	/** The pricing service: 400 ms a price. */
	@Container
	static final DownstreamContainer pricing = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/price").latency(Duration.ofMillis(400)).bodyBytes(128))
		.withNetwork(network)
		.withNetworkAliases("pricing")
		.withName("pricing");

	/** The quote service: 200 ms a quote, on 8 threads. */
	@Container
	static final DownstreamContainer quotes = new DownstreamContainer()
		.withRoute(DownstreamContainer.route("/quote").latency(Duration.ofMillis(200)).bodyBytes(64))
		.withThreads(8)
		.withNetwork(network)
		.withNetworkAliases("quotes")
		.withName("quotes");

	@Container
	static final ServiceContainer shop = new ServiceContainer(System.getenv().getOrDefault("SHOP_IMAGE", "example/shop:1.0.0"))
		.withNetwork(network)
		.withSpringProperty("spring.datasource.url",
				"jdbc:mysql://mysql:3306/" + mysql.getDatabaseName() + "?useSSL=false&allowPublicKeyRetrieval=true")
		.withSpringProperty("spring.datasource.username", mysql.getUsername())
		.withSpringProperty("spring.datasource.password", mysql.getPassword())
		// The JDK's common pool as a 3-core machine sizes it, 2 threads: on this 2-core one it has 1, and
		// CompletableFuture then runs each task on a thread of its own.
		.withJvmOptions("-Djava.util.concurrent.ForkJoinPool.common.parallelism=2")
		.dependsOn(mysql);

	/** Three 8 ms queries a request on Connector/J 8.3, each pinning its carrier: the carriers, not the pool, cap it. */
	@Test
	void theOrderRouteIsCappedByPinnedCarriers(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/order").named("shop /order").upToUsers(32).confirming().run();

		report.record("sweep: /order (three 8 ms queries, Connector/J 8.3, virtual threads)", sweep);
		assertThat(sweep).isCappedBy(Resource.CARRIER_THREADS).hasCeilingNearItsModel(withPercentage(25)).isConfirmedWithin(withPercentage(10));
	}

	/** A WebClient pool of 16 without meters, seen in the service's TCP connections. */
	@Test
	void thePriceRouteIsCappedByItsConnectionPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/price")
			.named("shop /price")
			.upToUsers(32)
			.confirming(Knob.springProperty("pricing pool 32", "shop.pricing.max-connections", 32, 2))
			.run();

		report.record("sweep: /price (WebClient, a pool of 16, no meters)", sweep);
		assertThat(sweep).isCappedBy(Resource.CONNECTION_POOL).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
	}

	/** The JDK's HttpClient has no pool limit: the quote service's 8 threads cap the route, and no pool is named. */
	@Test
	void theQuoteRouteIsCappedByTheQuoteService(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/quote").named("shop /quote").watchingDownstream(quotes).upToUsers(32).run();

		report.record("sweep: /quote (the JDK's HttpClient, a quote service on 8 threads)", sweep);
		assertThat(sweep).isCappedBy(Resource.DOWNSTREAM).hasCeilingNearItsModel(withPercentage(15));
	}

	/**
	 * The same quote behind the team's Resilience4j bulkhead of 4 permits: the JDK's client opens as many connections
	 * as the bulkhead lets calls through, 4, flat while the users double, and no pool of it is named: the bulkhead is,
	 * by its meters, with its model 4 permits / W₁ (20 rps, the quote service's 8 threads would allow 40). Its own
	 * setting, 6 permits, lifts the ceiling by half.
	 */
	@Test
	void theRatesRouteIsCappedByItsBulkhead(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/rates")
			.named("shop /rates")
			.upToUsers(32)
			.confirming(Knob.springProperty("quotes bulkhead 6", "resilience4j.bulkhead.instances.quotes.max-concurrent-calls", 6, 1.5))
			.run();

		report.record("sweep: /rates (the JDK's HttpClient behind a Resilience4j bulkhead of 4)", sweep);
		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep).isNotCappedBy(Resource.CONNECTION_POOL);
	}

	/**
	 * A partner's quote behind the team's Resilience4j rate limiter, 2 permits every 125 ms: throughput flat at 16 rps
	 * whatever the users, the request threads waiting in the rate limiter, named with its rate read from the service's
	 * own configuration. Its own knob, doubling the permits, doubles the ceiling (32 rps, the quote service's 8 threads
	 * would allow 40). A step's window of a few seconds can catch one period's permits more than its length holds: at
	 * 500 ms periods a 4-user step read 19.1 rps for 16, at 125 ms that is at most a few per cent.
	 */
	@Test
	void thePartnersRouteIsCappedByItsRateLimiter(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/partners").named("shop /partners").upToUsers(32).confirming().run();

		report.record("sweep: /partners (the JDK's HttpClient behind a Resilience4j rate limiter of 2 every 125 ms)", sweep);
		assertThat(sweep).isCappedBy(Resource.RATE_LIMITER).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("2 permits every 125 ms");
	}

	/**
	 * An offer's quote on the threads of the team's Resilience4j thread-pool bulkhead, core 2 and max 4 with a queue of
	 * 100: its calls run on its 2 core threads while fewer than 100 wait, so 2 threads / 0.2 s = 10 rps where the max
	 * promised 20. Named a bulkhead by its threads' names, its sizes from its meters; its own knob, the core raised to
	 * 4 with the max, doubles the ceiling (the quote service's 8 threads would allow 40).
	 */
	@Test
	void theOffersRouteIsCappedByItsThreadPoolBulkhead(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/offers").named("shop /offers").upToUsers(32).confirming().run();

		report.record("sweep: /offers (the JDK's HttpClient on a Resilience4j thread-pool bulkhead, core 2, max 4)", sweep);
		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("thread-pool bulkhead offers: 2/2 threads busy");
	}

	/**
	 * A stock check behind the team's own java.util.concurrent.Semaphore of 3 permits: named a bulkhead by where its
	 * request threads wait and the 3 past the permit in the same method, 3 / 0.2 s = 15 rps; the team's own setting, 6
	 * permits, doubles it.
	 */
	@Test
	void theStockCheckRouteIsCappedByTheTeamsSemaphore(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/stock-check")
			.named("shop /stock-check")
			.upToUsers(32)
			.confirming(Knob.springProperty("stock checks 6", "shop.stock-checks", 6, 2))
			.run();

		report.record("sweep: /stock-check (the JDK's HttpClient behind a Semaphore of 3)", sweep);
		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("3/3 permits held");
	}

	/**
	 * A supplier's quote behind the team's Guava rate limiter of 12 a second: its rate lives in the team's code, where
	 * no meter and no configuration shows it, so the test declares it with where its waiters wait. Named in the team's
	 * words at 12 permits / 1 s = 12 rps; the team's own setting, 24 a second, doubles it (the quote service's 8 threads
	 * would allow 40).
	 */
	@Test
	void theSuppliersRouteIsCappedByTheTeamsGuavaRateLimiter(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/suppliers")
			.named("shop /suppliers")
			.upToUsers(32)
			.knowing(Resource.own("supplier calls")
				.permitsPerSecond(12)
				.waitingIn("com.google.common.util.concurrent.RateLimiter.acquire"))
			.confirming(Knob.springProperty("supplier rate 24", "shop.supplier-rate", 24, 2))
			.run();

		report.record("sweep: /suppliers (the JDK's HttpClient behind a Guava rate limiter of 12 a second)", sweep);
		assertThat(sweep).isCappedBy(Resource.OWN).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("supplier calls (the team's own, declared by the test): 12 permits a second");
	}

	/**
	 * Two delivery options looked up at once on the JDK's common pool, a query of 0.2 s each: the pool's 2 threads cap
	 * the route at 2 threads over the 0.4 thread-seconds a request needs of them, 5 rps, read from its busy threads in
	 * the dumps below the cap. Its own knob, the pool's parallelism doubled, doubles it.
	 */
	@Test
	void theDeliveryRouteIsCappedByTheCommonPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/delivery").named("shop /delivery").upToUsers(16).confirming().run();

		report.record("sweep: /delivery (two queries at once on the JDK's common pool of 2)", sweep);
		assertThat(sweep).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(15)).isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("ForkJoinPool.commonPool-worker-*: 2 threads busy");
	}

	/** A receipt signed on the CPU: the machine's two cores, shared with the database and the load generator. */
	@Test
	void theReceiptRouteIsCappedByTheMachinesCpu(ScenarioReport report) {
		SweepResult sweep = Sweep.of(shop, "/receipt").named("shop /receipt").upToUsers(16).run();

		report.record("sweep: /receipt (SHA-256 rounds on the CPU)", sweep);
		assertThat(sweep).isCappedBy(Resource.CPU).hasCeilingNearItsModel(withPercentage(25));
	}

}
