package com.example.stock;

import java.util.Map;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * A small service as a team writes it: a price from a quote service (RestClient on Apache HttpClient 5, as
 * Spring Boot builds it), stock from the database (JdbcClient on Hikari), and a report that takes a while on a
 * request thread. Every limit is Spring Boot's default unless the environment sets it.
 */
@SpringBootApplication
@RestController
public class StockApplication {

	private final RestClient quotes;

	private final JdbcClient jdbc;

	StockApplication(RestClient.Builder builder, JdbcClient jdbc, @Value("${stock.quotes-url}") String quotesUrl) {
		this.quotes = builder.baseUrl(quotesUrl).build();
		this.jdbc = jdbc;
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

	/** One query per request, a quarter of a second in the database. */
	@GetMapping("/stock")
	Map<String, Object> stock() {
		Integer slept = this.jdbc.sql("SELECT SLEEP(0.25)").query(Integer.class).single();
		return Map.of("inStock", 7, "slept", slept);
	}

	/** 300 ms of waiting on the request's thread. */
	@GetMapping("/report")
	Map<String, Object> report() throws InterruptedException {
		Thread.sleep(300);
		return Map.of("report", "ready");
	}

}
