package dev.bottleneckkit.lab.caller;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.resilience4j.bulkhead.Bulkhead;

import dev.bottleneckkit.lab.Threads;

import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The caller's routes: each request makes one call to the downstream and returns its reply with the
 * thread that served the caller.
 */
@RestController
@Profile("caller")
@RequestMapping("/call")
class CallerController {

	private final RestClient downstream;

	private final Optional<Bulkhead> bulkhead;

	private final CallerProperties properties;

	private final WebClient webClient;

	CallerController(RestClient downstream, Optional<Bulkhead> downstreamBulkhead, CallerProperties properties,
			WebClient downstreamWebClient) {
		this.downstream = downstream;
		this.bulkhead = downstreamBulkhead;
		this.properties = properties;
		this.webClient = downstreamWebClient;
	}

	/** The same call through WebClient on Reactor Netty, waiting for the answer on this request's thread. */
	@GetMapping("/webclient/sleep")
	CallReply webClientSleep(@RequestParam(required = false) String latency) {
		Map<?, ?> reply = this.webClient.get()
			.uri((uri) -> uri.path("/work/sleep").queryParamIfPresent("latency", Optional.ofNullable(latency)).build())
			.retrieve()
			.bodyToMono(Map.class)
			.block();
		return new CallReply(reply, Threads.current());
	}

	/**
	 * Calls the downstream's {@code /work/sleep}, passing {@code latency} on when given, through the bulkhead
	 * if one is set. {@code via} names another downstream from {@code lab.caller.downstreams}: same client,
	 * same pool, another route.
	 */
	@GetMapping("/sleep")
	CallReply sleep(@RequestParam(required = false) String latency, @RequestParam(required = false) String via) {
		URI base = (via != null) ? namedDownstream(via) : this.properties.downstreamUrl();
		Supplier<Map<?, ?>> call = () -> this.downstream.get()
			.uri(UriComponentsBuilder.fromUri(base)
				.path("/work/sleep")
				.queryParamIfPresent("latency", Optional.ofNullable(latency))
				.build()
				.toUri())
			.retrieve()
			.body(Map.class);
		Map<?, ?> reply = this.bulkhead.isPresent() ? this.bulkhead.get().executeSupplier(call) : call.get();
		return new CallReply(reply, Threads.current());
	}

	private URI namedDownstream(String name) {
		URI base = this.properties.downstreams().get(name);
		if (base == null) {
			throw new IllegalArgumentException(
					"via must name one of lab.caller.downstreams " + this.properties.downstreams().keySet() + ", was '" + name + "'");
		}
		return base;
	}

	record CallReply(Map<?, ?> downstream, Threads thread) {
	}

}
