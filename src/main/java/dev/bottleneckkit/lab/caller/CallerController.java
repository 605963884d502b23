package dev.bottleneckkit.lab.caller;

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

	CallerController(RestClient downstream, Optional<Bulkhead> downstreamBulkhead) {
		this.downstream = downstream;
		this.bulkhead = downstreamBulkhead;
	}

	/** Calls the downstream's {@code /work/sleep}, passing {@code latency} on when given; through the bulkhead if set. */
	@GetMapping("/sleep")
	CallReply sleep(@RequestParam(required = false) String latency) {
		Supplier<Map<?, ?>> call = () -> this.downstream.get()
			.uri((uri) -> uri.path("/work/sleep").queryParamIfPresent("latency", Optional.ofNullable(latency)).build())
			.retrieve()
			.body(Map.class);
		Map<?, ?> reply = this.bulkhead.isPresent() ? this.bulkhead.get().executeSupplier(call) : call.get();
		return new CallReply(reply, Threads.current());
	}

	record CallReply(Map<?, ?> downstream, Threads thread) {
	}

}
