package com.example.guards;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
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
 * Limits a team writes by hand around a call to its partner (the quote service, 0.5 s a call): no kind of the kit
 * knows them, so each is named by where the requests wait and who holds what they wait for, with Little's law, holders
 * over the hold, and confirmed by the team's own setting. Tomcat keeps its 200 threads, so the limit, not Tomcat, caps.
 */
@Scenario(id = "T9", title = "Limits written by hand: named by where the requests wait")
class HandWrittenLimitsIT {

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	/** The partner's quote service: 400 ms a quote, reached through Toxiproxy, which adds 100 ms. */
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
		// The JDK client keeps an idle connection ten minutes: those /guarded opened stay beside the async client's.
		.withJvmOptions("-Djdk.httpclient.keepalive.timeout=600")
		.dependsOn(mysql);

	@BeforeAll
	static void slowNetworkToThePartner() throws Exception {
		KitContainers.proxy(toxiproxy, "quotes", 8666, "quotes:8080")
			.toxics()
			.latency("slow-network", ToxicDirection.DOWNSTREAM, 100);
	}

	/**
	 * 4 licences handed out on a monitor ({@code synchronized}, {@code wait}, {@code notifyAll}): the extra requests
	 * wait in {@code Licences.take}, 4 request threads past it hold them, 4 / 0.5 s = 8 rps; 8 licences double it.
	 */
	@Test
	void theLicencesOnAMonitorCapTheLicensedRoute(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/licensed")
			.named("stock /licensed")
			.upToUsers(32)
			.confirming(Knob.springProperty("licences 8", "stock.licences", 8, 2))
			.run();

		report.record("sweep: /licensed (4 licences on a monitor, 0.5 s each)", sweep);
		assertThat(sweep).isCappedBy(Resource.WAIT_SITE)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("requests wait in `com.example.stock.Licences.take` (a monitor's wait)")
			.contains(": 4 holders")
			.doesNotContain("connection pool");
	}

	/**
	 * 6 handles in a {@code LinkedBlockingQueue}, taken and put back by hand: the extra requests wait in its take, 6
	 * request threads past it hold them, 6 / 0.5 s = 12 rps; 12 handles double it.
	 */
	@Test
	void theQueueOfHandlesCapsTheHandledRoute(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/handled")
			.named("stock /handled")
			.upToUsers(32)
			.confirming(Knob.springProperty("handles 12", "stock.handles", 12, 2))
			.run();

		report.record("sweep: /handled (6 handles in a queue, 0.5 s each)", sweep);
		assertThat(sweep).isCappedBy(Resource.WAIT_SITE)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("requests wait in `com.example.stock.StockApplication.handled` (a queue)")
			.contains(": 6 holders")
			.doesNotContain("connection pool");
	}

	/**
	 * 8 calls at once by {@code Semaphore.tryAcquire()}, the ninth answered 503 at once: a cap that refuses instead of
	 * queueing. It is named from the failures, with the 8 request threads that hold the calls, 8 / 0.5 s = 16 rps;
	 * 16 calls double it.
	 */
	@Test
	void theSemaphoreThatRefusesCapsTheGuardedRoute(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/guarded")
			.named("stock /guarded")
			.upToUsers(32)
			.confirming(Knob.springProperty("calls 16", "stock.calls", 16, 2))
			.run();

		report.record("sweep: /guarded (8 calls at once, the rest answered 503)", sweep);
		assertThat(sweep).isCappedBy(Resource.WAIT_SITE)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("beyond 8 at once, requests fail with http-503")
			.doesNotContain("connection pool");
	}

	/**
	 * Apache HttpClient 5's async client at its default pool, 5 connections a route: every request thread joins its
	 * future, so no thread holds what the others wait for; the 5 connections carrying requests do, 5 / 0.5 s = 10 rps,
	 * and 10 a route double it. A pool that exists, named from where the requests wait and who holds it. Before the sweep, the service's other client (the JDK's) opens 8 connections to the same
	 * destination for /guarded and keeps them idle: they are established all along and never counted.
	 */
	@Test
	void theAsyncClientsPoolCapsTheAsyncRoute(ScenarioReport report) {
		openIdleConnectionsOfTheOtherClient(8);
		SweepResult sweep = Sweep.of(stock, "/async")
			.named("stock /async")
			.upToUsers(32)
			.confirming(Knob.springProperty("async pool 10 a route", "stock.async.max-per-route", 10, 2))
			.run();

		report.record("sweep: /async (Apache HttpClient 5's async client, its default pool)", sweep);
		assertThat(sweep).isCappedBy(Resource.CONNECTION_POOL)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line())
			.contains("connection pool to toxiproxy:8666: requests wait in `org.apache.hc.core5.concurrent.BasicFuture.get`")
			.contains(": 5 holders, connections carrying a request");
		// The JDK client's idle connections to the same destination were there all along, and not counted.
		assertThat(sweep.steps().get(sweep.steps().size() - 1).connections())
			.anySatisfy((destination) -> assertThat(destination.max()).isGreaterThanOrEqualTo(5 + 8));
	}

	/**
	 * A dispatcher of the team's own, written as OkHttp's works: at most 4 calls to the partner at once on its cached
	 * pool of {@code dispatcher-*} threads, the rest in a plain deque no thread waits in, each request thread waiting
	 * for its call's future. The 4 busy dispatcher threads hold what the requests wait for, 4 / 0.5 s = 8 rps, though
	 * the connection pool under them allows 32 and 4 connections carry the calls; 8 a host double it.
	 */
	@Test
	void theTeamsDispatcherCapsTheDispatchedRoute(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/dispatched")
			.named("stock /dispatched")
			.upToUsers(32)
			.confirming(Knob.springProperty("dispatcher 8 a host", "stock.dispatcher.max-per-host", 8, 2))
			.run();

		report.record("sweep: /dispatched (a dispatcher of 4 calls at once, 0.5 s each)", sweep);
		assertThat(sweep).isCappedBy(Resource.EXECUTOR)
			.hasCeilingNearItsModel(withPercentage(15))
			.isConfirmedWithin(withPercentage(10));
		assertThat(sweep.verdict().line()).contains("dispatcher-")
			.contains("com.example.stock.Dispatcher$Call.run")
			.doesNotContain("connection pool");
	}

	/** {@code count} requests at once to /guarded: its JDK client opens as many connections and keeps them idle. */
	private static void openIdleConnectionsOfTheOtherClient(int count) {
		try (HttpClient client = HttpClient.newHttpClient()) {
			List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				answers.add(client.sendAsync(HttpRequest.newBuilder(stock.uri("/guarded")).build(),
						HttpResponse.BodyHandlers.discarding()));
			}
			answers.forEach(CompletableFuture::join);
		}
	}

	/**
	 * A visit counted on one row in each request's transaction, then a 50 ms query before the commit: the row's lock is
	 * held by one transaction at a time, so 1 / 0.05 s = 20 rps at most, whatever Hikari's 10 connections allow. It is
	 * read from the database's own lock tables (the kit finds the MySQL it started on the service's network), and the
	 * pool in front of it, full because its connections wait there, is not named. The lock's hold is a transaction's,
	 * read from the database at one user (transactions holding row locks over the throughput), not the request's W₁.
	 */
	@Test
	void aRowLockInTheDatabaseCapsTheCountedRoute(ScenarioReport report) {
		SweepResult sweep = Sweep.of(stock, "/counted").named("stock /counted").upToUsers(32).run();

		report.record("sweep: /counted (one row updated in each transaction, 50 ms before the commit)", sweep);
		assertThat(sweep).isCappedBy(Resource.WAIT_SITE).hasCeilingNearItsModel(withPercentage(15));
		assertThat(sweep.verdict().line()).contains("requests wait in the database for a lock on `test`.`counters` PRIMARY")
			.contains(": 1 holder")
			.doesNotContain("Hikari")
			.doesNotContain("connection pool");
	}

}
