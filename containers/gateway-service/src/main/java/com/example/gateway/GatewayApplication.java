package com.example.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * A reactive gateway as a team writes it when it moves to WebFlux: most routes reactive, one still calling the stock
 * service with the blocking JDK client it had before. That call runs on Reactor Netty's event loop, and holds it for
 * the stock service's answer: as many requests at once as there are event loops, whatever the users.
 */
@SpringBootApplication
@RestController
public class GatewayApplication {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final URI stock;

	private final WebClient stockClient;

	GatewayApplication(@Value("${gateway.stock-url}") String stockUrl) {
		this.stock = URI.create(stockUrl + "/stock");
		this.stockClient = WebClient.create(stockUrl);
	}

	public static void main(String[] args) {
		SpringApplication.run(GatewayApplication.class, args);
	}

	/** The stock of an item through the blocking client, on the event loop that serves the request. */
	@GetMapping("/availability")
	Map<String, Object> availability() throws IOException, InterruptedException {
		HttpResponse<String> stock = this.http.send(
				HttpRequest.newBuilder(this.stock).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
		return Map.of("status", stock.statusCode(), "stockBytes", stock.body().length());
	}

	/** The same stock, reactive: the event loop is free while the stock service answers. */
	@GetMapping("/availability-reactive")
	Mono<Map<String, Object>> availabilityReactive() {
		return this.stockClient.get()
			.uri("/stock")
			.retrieve()
			.bodyToMono(String.class)
			.map((body) -> Map.of("status", 200, "stockBytes", body.length()));
	}

}
