package com.example.shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Semaphore;

import com.google.common.util.concurrent.RateLimiter;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * A shop as a team writes it on virtual threads: an order reads the database three times (milliseconds each),
 * a price comes from the pricing service through a WebClient whose connection pool the team sized to 16, a quote
 * from the quote service through the JDK's HttpClient (rates through the same client behind a Resilience4j bulkhead,
 * the fix for the bulkhead virtual threads take away, and partners' quotes behind a Resilience4j rate limiter, the
 * other fix; offers' quotes on the threads of a Resilience4j thread-pool bulkhead; stock checks behind the team's own
 * Semaphore; suppliers' quotes behind a Guava rate limiter; delivery options from the database on the JDK's common
 * pool), and a receipt is signed on the CPU. Every limit is the libraries' default unless the environment or the
 * application's properties set it.
 */
@SpringBootApplication
@RestController
public class ShopApplication {

	private final JdbcClient jdbc;

	private final WebClient pricing;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final URI quotes;

	private final Bulkhead quotesBulkhead;

	private final io.github.resilience4j.ratelimiter.RateLimiter partnersLimiter;

	/** The suppliers' contract, kept in the team's code with Guava's rate limiter: as many calls a second as it allows. */
	private final RateLimiter suppliersLimiter;

	private final ThreadPoolBulkhead offersBulkhead;

	/** The team's own guard on the warehouse's stock checks: as many at once as it has permits. */
	private final Semaphore stockChecks;

	ShopApplication(JdbcClient jdbc, WebClient.Builder builder, @Value("${shop.pricing-url}") String pricingUrl,
			@Value("${shop.pricing.max-connections:16}") int pricingConnections,
			@Value("${shop.quotes-url}") String quotesUrl, BulkheadRegistry bulkheads, RateLimiterRegistry limiters,
			ThreadPoolBulkheadRegistry threadPoolBulkheads, @Value("${shop.stock-checks:3}") int stockChecks,
			@Value("${shop.supplier-rate:12}") double supplierRate) {
		this.jdbc = jdbc;
		this.suppliersLimiter = RateLimiter.create(supplierRate);
		this.stockChecks = new Semaphore(stockChecks, true);
		this.quotesBulkhead = bulkheads.bulkhead("quotes");
		this.offersBulkhead = threadPoolBulkheads.bulkhead("offers");
		this.partnersLimiter = limiters.rateLimiter("partners");
		// One pool for the pricing service, sized by the team; no .metrics(true), as most teams leave it.
		ConnectionProvider pool = ConnectionProvider.builder("pricing").maxConnections(pricingConnections).build();
		this.pricing = builder.baseUrl(pricingUrl)
			.clientConnector(new ReactorClientHttpConnector(reactor.netty.http.client.HttpClient.create(pool)))
			.build();
		this.quotes = URI.create(quotesUrl + "/quote");
	}

	public static void main(String[] args) {
		SpringApplication.run(ShopApplication.class, args);
	}

	/** Three short queries: the order, its lines, its customer (8 ms each in the database). */
	@GetMapping("/order")
	Map<String, Object> order() {
		Integer order = this.jdbc.sql("SELECT SLEEP(0.008)").query(Integer.class).single();
		Integer lines = this.jdbc.sql("SELECT SLEEP(0.008)").query(Integer.class).single();
		Integer customer = this.jdbc.sql("SELECT SLEEP(0.008)").query(Integer.class).single();
		return Map.of("order", order, "lines", lines, "customer", customer);
	}

	/** A basket: its items, then their prices, two short queries (as fast as the database's network allows). */
	@GetMapping("/basket")
	Map<String, Object> basket() {
		Integer items = this.jdbc.sql("SELECT 3").query(Integer.class).single();
		Integer prices = this.jdbc.sql("SELECT 42").query(Integer.class).single();
		return Map.of("items", items, "total", items * prices);
	}

	/** A price from the pricing service, waited for on the request's (virtual) thread. */
	@GetMapping("/price")
	Map<String, Object> price() {
		String price = this.pricing.get().uri("/price").retrieve().bodyToMono(String.class).block();
		return Map.of("priceBytes", (price != null) ? price.length() : 0);
	}

	/** A quote from the quote service through the JDK's HttpClient. */
	@GetMapping("/quote")
	Map<String, Object> quote() throws IOException, InterruptedException {
		HttpResponse<String> quote = this.http.send(
				HttpRequest.newBuilder(this.quotes).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
		return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
	}

	/** A quote through the bulkhead in front of the quote service: a call waits for one of its permits. */
	@GetMapping("/rates")
	Map<String, Object> rates() throws Throwable {
		HttpResponse<String> quote = this.quotesBulkhead.executeCheckedSupplier(() -> this.http.send(
				HttpRequest.newBuilder(this.quotes).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString()));
		return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
	}

	/** A quote for a partner, through the rate limiter the partners' contract sets: a call waits for a permit. */
	@GetMapping("/partners")
	Map<String, Object> partners() throws Throwable {
		HttpResponse<String> quote = this.partnersLimiter.executeCheckedSupplier(() -> this.http.send(
				HttpRequest.newBuilder(this.quotes).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString()));
		return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
	}

	/**
	 * An offer's quote fetched on the threads of the offers bulkhead (a Resilience4j thread-pool bulkhead), the
	 * request waiting for it: a call runs on one of its threads or waits in its queue.
	 */
	@GetMapping("/offers")
	Map<String, Object> offers() {
		HttpResponse<String> quote = this.offersBulkhead
			.executeCallable(() -> this.http.send(HttpRequest.newBuilder(this.quotes).timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString()))
			.toCompletableFuture()
			.join();
		return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
	}

	/** A stock check through the team's own semaphore in front of the quote service: a call waits for a permit. */
	@GetMapping("/stock-check")
	Map<String, Object> stockCheck() throws IOException, InterruptedException {
		this.stockChecks.acquire();
		try {
			HttpResponse<String> quote = fetchQuote();
			return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
		}
		finally {
			this.stockChecks.release();
		}
	}

	/** A supplier's quote, as many a second as the suppliers' Guava rate limiter allows: a call waits for a permit. */
	@GetMapping("/suppliers")
	Map<String, Object> suppliers() throws IOException, InterruptedException {
		this.suppliersLimiter.acquire();
		HttpResponse<String> quote = fetchQuote();
		return Map.of("status", quote.statusCode(), "quoteBytes", quote.body().length());
	}

	/**
	 * Two delivery options looked up at once on the JDK's common pool, a query of 0.2 s in the database each, the
	 * request waiting for both.
	 */
	@GetMapping("/delivery")
	Map<String, Object> delivery() {
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(this::deliveryOption, ForkJoinPool.commonPool());
		CompletableFuture<Integer> second = CompletableFuture.supplyAsync(this::deliveryOption,
				ForkJoinPool.commonPool());
		return Map.of("options", first.join() + second.join());
	}

	private Integer deliveryOption() {
		return this.jdbc.sql("select sleep(0.2) + 1").query(Integer.class).single();
	}

	private HttpResponse<String> fetchQuote() throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(this.quotes).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/** A receipt signed on the CPU: a few thousand rounds of SHA-256. */
	@GetMapping("/receipt")
	Map<String, Object> receipt() throws NoSuchAlgorithmException {
		MessageDigest sha = MessageDigest.getInstance("SHA-256");
		byte[] digest = new byte[32];
		for (int i = 0; i < 20_000; i++) {
			sha.update(digest);
			digest = sha.digest();
		}
		return Map.of("signature", HexFormat.of().formatHex(digest));
	}

}
