package com.example.reports;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A reports service on Jetty, on platform threads: a report waits 300 ms on the request's thread (a slow
 * dependency, say). Jetty's thread pool is Spring Boot's default unless the environment sets it.
 */
@SpringBootApplication
@RestController
public class ReportsApplication {

	public static void main(String[] args) {
		SpringApplication.run(ReportsApplication.class, args);
	}

	/** 300 ms of waiting on the request's thread. */
	@GetMapping("/report")
	Map<String, Object> report() throws InterruptedException {
		Thread.sleep(300);
		return Map.of("report", "ready");
	}

}
