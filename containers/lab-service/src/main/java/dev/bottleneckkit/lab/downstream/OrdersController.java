package dev.bottleneckkit.lab.downstream;

import java.time.Duration;

import dev.bottleneckkit.lab.Threads;

import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An order, as any team's service has a route for one: {@code /orders/{id}} blocks its
 * request thread for {@code lab.downstream.latency} (a database call's worth) and answers
 * the order. The README's first example sweeps it from a project outside this tree.
 */
@RestController
@Profile("downstream")
class OrdersController {

	private final DownstreamProperties properties;

	OrdersController(DownstreamProperties properties) {
		this.properties = properties;
	}

	@GetMapping("/orders/{id}")
	Order order(@PathVariable long id) throws InterruptedException {
		Duration wait = this.properties.latency();
		Thread.sleep(wait);
		return new Order(id, "book", Threads.current());
	}

	record Order(long id, String item, Threads servedBy) {
	}

}
