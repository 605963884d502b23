package dev.bottleneckkit.lab.caller;

import java.util.Map;
import java.util.Optional;

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

	CallerController(RestClient downstream) {
		this.downstream = downstream;
	}

	/** Calls the downstream's {@code /work/sleep}, passing {@code latency} on when given. */
	@GetMapping("/sleep")
	CallReply sleep(@RequestParam(required = false) String latency) {
		Map<?, ?> reply = this.downstream.get()
			.uri((uri) -> uri.path("/work/sleep").queryParamIfPresent("latency", Optional.ofNullable(latency)).build())
			.retrieve()
			.body(Map.class);
		return new CallReply(reply, Threads.current());
	}

	record CallReply(Map<?, ?> downstream, Threads thread) {
	}

}
