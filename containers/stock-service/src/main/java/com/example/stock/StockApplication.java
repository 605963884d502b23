package com.example.stock;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.server.ResponseStatusException;

/**
 * A small service as a team writes it: a price from a quote service (RestClient on Apache HttpClient 5, as
 * Spring Boot builds it), stock from the database (JdbcClient on Hikari), a report that takes a while on a
 * request thread, a ledger whose transaction queries and then computes while it holds its connection, and an
 * invoice rendered after its transaction has given the connection back, a page of orders that takes its connection
 * twice, a price list signed on the CPU, a bundle whose two quotes are fetched at once on a pool of the team's own, and a label drawn by one of the
 * team's renderers, a pool of objects it publishes two gauges for. Every limit is Spring Boot's default unless the
 * environment sets it. Three routes call the quote service through limits written by hand, as teams write them: licences
 * on a monitor, a queue of handles, and a semaphore that turns the extra requests away; one calls it on Apache HttpClient's
 * async client; one counts visits on a row, and one through a dispatcher of the team's own that runs a few calls at once on its threads.
 */
@SpringBootApplication
@RestController
public class StockApplication {

	private final RestClient quotes;

	private final JdbcClient jdbc;

	private final TransactionTemplate transaction;

	/** Rounds of SHA-256 over 64 KiB a ledger entry takes, inside its transaction. */
	private final int ledgerRounds;

	/** Rounds of SHA-256 over 64 KiB a price list's signature takes. */
	private final int signatureRounds;

	/** The team's own pool for the bundle's quotes, its threads named after them. */
	private final ExecutorService quotesPool;

	/** Spring's own task executor, the applicationTaskExecutor Boot configures (spring.task.execution.*). */
	private final Executor tasks;

	/** The team's renderers: a label takes one for as long as it draws. */
	private final BlockingQueue<Renderer> renderers;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final URI quote;

	/** Licences of the partner's API, handed out on a monitor. */
	private final Licences licences;

	/** Handles to the partner's API, taken from a queue and put back. */
	private final BlockingQueue<Integer> handles = new LinkedBlockingQueue<>();

	/** Calls to the partner at once; one more is answered 503 at once. */
	private final Semaphore calls;

	/** Apache HttpClient 5's async client, as HttpAsyncClients builds it unless the team sets its pool. */
	private final CloseableHttpAsyncClient async;

	/** The team's own asynchronous client to the partner: a few calls at once on its threads, the rest queued. */
	private final Dispatcher dispatcher;

	StockApplication(RestClient.Builder builder, JdbcClient jdbc, TransactionTemplate transaction,
			@Value("${stock.quotes-url}") String quotesUrl, @Value("${stock.ledger-rounds:480}") int ledgerRounds,
			@Value("${stock.signature-rounds:200}") int signatureRounds,
			@Value("${stock.bundle.threads:3}") int bundleThreads, @Value("${stock.renderers:3}") int renderers,
			@Value("${stock.licences:4}") int licences, @Value("${stock.handles:6}") int handles,
			@Value("${stock.calls:8}") int calls, @Value("${stock.async.max-per-route:0}") int asyncPerRoute,
			@Value("${stock.dispatcher.max-per-host:4}") int dispatcherPerHost,
			@Qualifier("applicationTaskExecutor") Executor tasks, MeterRegistry meters) {
		this.quotes = builder.baseUrl(quotesUrl).build();
		this.jdbc = jdbc;
		this.transaction = transaction;
		this.ledgerRounds = ledgerRounds;
		this.signatureRounds = signatureRounds;
		this.quotesPool = Executors.newFixedThreadPool(bundleThreads, Thread.ofPlatform().name("quotes-", 1).factory());
		this.tasks = tasks;
		this.quote = URI.create(quotesUrl + "/quote");
		this.licences = new Licences(licences);
		for (int i = 0; i < handles; i++) {
			this.handles.add(i);
		}
		this.calls = new Semaphore(calls);
		this.async = (asyncPerRoute > 0) ? HttpAsyncClients.custom()
			.setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
				.setMaxConnPerRoute(asyncPerRoute)
				.setMaxConnTotal(Math.max(25, asyncPerRoute))
				.build())
			.build() : HttpAsyncClients.createDefault();
		this.async.start();
		this.dispatcher = new Dispatcher(dispatcherPerHost);
		this.renderers = new ArrayBlockingQueue<>(renderers);
		for (int i = 0; i < renderers; i++) {
			this.renderers.add(new Renderer());
		}
		Gauge.builder("stock.renderers.size", () -> renderers).description("renderers in the pool").register(meters);
		Gauge.builder("stock.renderers.busy", () -> renderers - this.renderers.size())
			.description("renderers drawing a label")
			.register(meters);
	}

	public static void main(String[] args) {
		SpringApplication.run(StockApplication.class, args);
	}

	/** One call to the quote service per request. */
	@GetMapping("/price")
	Map<String, Object> price() {
		String quote = this.quotes.get().uri("/quote").retrieve().body(String.class);
		return Map.of("price", 42, "quoteBytes", (quote != null) ? quote.length() : 0);
	}

	/** A bundle of two items: their quotes fetched at once on the team's pool, the request waiting for both. */
	@GetMapping("/bundle")
	Map<String, Object> bundle() {
		List<CompletableFuture<Integer>> quotes = List.of(CompletableFuture.supplyAsync(this::quoteBytes, this.quotesPool),
				CompletableFuture.supplyAsync(this::quoteBytes, this.quotesPool));
		return Map.of("items", 2, "quoteBytes", quotes.stream().mapToInt(CompletableFuture::join).sum());
	}

	/** Two suppliers' quotes compared, fetched at once on Spring's task executor, the request waiting for both. */
	@GetMapping("/compare")
	Map<String, Object> compare() {
		List<CompletableFuture<Integer>> quotes = List.of(CompletableFuture.supplyAsync(this::quoteBytes, this.tasks),
				CompletableFuture.supplyAsync(this::quoteBytes, this.tasks));
		return Map.of("suppliers", 2, "quoteBytes", quotes.stream().mapToInt(CompletableFuture::join).sum());
	}

	/** A quote from the partner under one of its licences; a request waits for a free one. */
	@GetMapping("/licensed")
	Map<String, Object> licensed() throws InterruptedException {
		this.licences.take();
		try {
			return Map.of("quoteBytes", quoteBytes());
		}
		finally {
			this.licences.giveBack();
		}
	}

	/** A quote through one of the partner's handles, taken from the queue and put back; a request waits for one. */
	@GetMapping("/handled")
	Map<String, Object> handled() throws InterruptedException {
		Integer handle = this.handles.take();
		try {
			return Map.of("handle", handle, "quoteBytes", quoteBytes());
		}
		finally {
			this.handles.put(handle);
		}
	}

	/** A quote if fewer than the partner's calls are under way, else 503 at once: the extra requests are turned away. */
	@GetMapping("/guarded")
	Map<String, Object> guarded() {
		if (!this.calls.tryAcquire()) {
			throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "the partner's calls are all in use");
		}
		try {
			return Map.of("quoteBytes", quoteBytes());
		}
		finally {
			this.calls.release();
		}
	}

	/** A quote from the async client, the request thread joining its future. */
	@GetMapping("/async")
	Map<String, Object> async() throws Exception {
		SimpleHttpResponse quote = this.async.execute(SimpleRequestBuilder.get(this.quote).build(), null)
			.get(30, TimeUnit.SECONDS);
		return Map.of("quoteBytes", quote.getBodyText().length());
	}

	/** A quote through the team's dispatcher, the request thread waiting for its future. */
	@GetMapping("/dispatched")
	Map<String, Object> dispatched() throws Exception {
		String quote = this.dispatcher.enqueue(this.quote).get(30, TimeUnit.SECONDS);
		return Map.of("quoteBytes", quote.length());
	}

	private int quoteBytes() {
		try {
			return this.http
				.send(HttpRequest.newBuilder(this.quote).timeout(Duration.ofSeconds(30)).build(),
						HttpResponse.BodyHandlers.ofString())
				.body()
				.length();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** A shipping label, drawn by one of the team's renderers (200 ms each); a request waits for a free one. */
	@GetMapping("/label")
	Map<String, Object> label() throws InterruptedException {
		Renderer renderer = this.renderers.take();
		try {
			return Map.of("label", renderer.draw());
		}
		finally {
			this.renderers.add(renderer);
		}
	}

	/** One of the team's renderers: an expensive object drawing one label at a time, as a native library would. */
	static final class Renderer {

		String draw() throws InterruptedException {
			Thread.sleep(200);
			return "drawn";
		}

	}

	/** The visits' counter: one row, created when the service starts. */
	@Bean
	static ApplicationRunner counters(JdbcClient jdbc) {
		return (args) -> {
			jdbc.sql("CREATE TABLE IF NOT EXISTS counters (id INT PRIMARY KEY, visits BIGINT NOT NULL)").update();
			jdbc.sql("INSERT IGNORE INTO counters VALUES (1, 0)").update();
		};
	}

	/**
	 * A visit counted on the counter's row in the request's transaction, then a 50 ms query before the commit: the row's
	 * lock is held until the commit, one transaction at a time.
	 */
	@GetMapping("/counted")
	Map<String, Object> counted() {
		return this.transaction.execute((status) -> {
			this.jdbc.sql("UPDATE counters SET visits = visits + 1 WHERE id = 1").update();
			Integer slept = this.jdbc.sql("SELECT SLEEP(0.05)").query(Integer.class).single();
			return Map.of("counted", true, "slept", slept);
		});
	}

	/** One query per request, a quarter of a second in the database. */
	@GetMapping("/stock")
	Map<String, Object> stock() {
		Integer slept = this.jdbc.sql("SELECT SLEEP(0.25)").query(Integer.class).single();
		return Map.of("inStock", 7, "slept", slept);
	}

	/**
	 * A 100 ms query, then the entry's checksum computed inside the same transaction (about 22 ms of CPU once the
	 * JIT has compiled SHA-256's intrinsics, more before): the connection is held while the request computes.
	 */
	@GetMapping("/ledger")
	Map<String, Object> ledger() {
		return this.transaction.execute((status) -> {
			Integer slept = this.jdbc.sql("SELECT SLEEP(0.1)").query(Integer.class).single();
			return Map.of("checksum", checksum(this.ledgerRounds), "slept", slept);
		});
	}

	/** The price list signed on the CPU, no query: a few milliseconds of a core once the JIT is done. */
	@GetMapping("/signature")
	Map<String, Object> signature() {
		return Map.of("signature", checksum(this.signatureRounds));
	}

	/**
	 * A 100 ms query in its transaction, then 50 ms rendering the invoice with the connection back in the pool (as
	 * open-in-view off leaves it): the connection is held for two thirds of the request.
	 */
	@GetMapping("/invoice")
	Map<String, Object> invoice() throws InterruptedException {
		Integer slept = this.transaction.execute((status) -> this.jdbc.sql("SELECT SLEEP(0.1)").query(Integer.class).single());
		Thread.sleep(50);
		return Map.of("invoice", "rendered", "slept", slept);
	}

	/**
	 * A page of orders as a repository pages them: a count query, then the page's query, each in a transaction of its
	 * own (50 ms each), then 50 ms rendering: the request takes a connection twice.
	 */
	@GetMapping("/orders")
	Map<String, Object> orders() throws InterruptedException {
		Integer total = this.transaction.execute((status) -> this.jdbc.sql("SELECT SLEEP(0.05)").query(Integer.class).single());
		Integer page = this.transaction.execute((status) -> this.jdbc.sql("SELECT SLEEP(0.05)").query(Integer.class).single());
		Thread.sleep(50);
		return Map.of("total", total, "page", page);
	}

	private static String checksum(int rounds) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			byte[] block = new byte[64 * 1024];
			for (int round = 0; round < rounds; round++) {
				block[round % block.length] = (byte) round;
				sha.update(block);
			}
			return HexFormat.of().formatHex(sha.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** 300 ms of waiting on the request's thread. */
	@GetMapping("/report")
	Map<String, Object> report() throws InterruptedException {
		Thread.sleep(300);
		return Map.of("report", "ready");
	}

}
