package dev.bottleneckkit.lab.caller;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * The caller's routes: each request makes one call to the downstream and returns its
 * reply with the thread that served the caller.
 */
@RestController
@Profile("caller")
@RequestMapping("/call")
class CallerController {

	/** Most branches {@code /call/first-success} asks at once. */
	static final int MAX_BRANCHES = 8;

	private final RestClient downstream;

	private final Optional<Bulkhead> bulkhead;

	private final CallerProperties properties;

	private final WebClient webClient;

	/**
	 * Runs each CompletableFuture branch in its own virtual thread, as the structured
	 * scope does.
	 */
	private final ExecutorService futures = Executors
		.newThreadPerTaskExecutor(Thread.ofVirtual().name("future-", 0).factory());

	CallerController(RestClient downstream, Optional<Bulkhead> downstreamBulkhead, CallerProperties properties,
			WebClient downstreamWebClient) {
		this.downstream = downstream;
		this.bulkhead = downstreamBulkhead;
		this.properties = properties;
		this.webClient = downstreamWebClient;
	}

	/**
	 * The same call through WebClient on Reactor Netty, waiting for the answer on this
	 * request's thread.
	 */
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
	 * Calls the downstream's {@code /work/sleep}, passing {@code latency} on when given,
	 * through the bulkhead if one is set. {@code via} names another downstream from
	 * {@code lab.caller.downstreams}: same client, same pool, another route.
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

	/**
	 * Fans out to two downstream calls at once and answers with both:
	 * {@code /work/steps?latency=<latency>} on the downstream, and
	 * {@code /work/sleep?latency=<viaLatency>} on the downstream named {@code via}.
	 * {@code join} chooses how the branches are joined:
	 * <ul>
	 * <li>{@code structured}: a {@link ShutdownOnFailureScope}; the first failure
	 * interrupts the sibling, whose call is abandoned, and the route fails at once;</li>
	 * <li>{@code futures}: {@code CompletableFuture.supplyAsync} for each branch and
	 * {@code allOf(..).join()}; the route fails only after the sibling has run to
	 * completion.</li>
	 * </ul>
	 */
	@GetMapping("/fanout")
	FanOutReply fanOut(@RequestParam String join, @RequestParam(required = false) String latency,
			@RequestParam String via, @RequestParam(required = false) String viaLatency) throws Exception {
		URI first = UriComponentsBuilder.fromUri(this.properties.downstreamUrl())
			.path("/work/steps")
			.queryParamIfPresent("latency", Optional.ofNullable(latency))
			.build()
			.toUri();
		URI second = UriComponentsBuilder.fromUri(namedDownstream(via))
			.path("/work/sleep")
			.queryParamIfPresent("latency", Optional.ofNullable(viaLatency))
			.build()
			.toUri();
		long started = System.nanoTime();
		Map<?, ?>[] replies = switch (join) {
			case "structured" -> structured(first, second);
			case "futures" -> futures(first, second);
			default -> throw new IllegalArgumentException("join must be 'structured' or 'futures', was '" + join + "'");
		};
		return new FanOutReply(join, replies[0], replies[1], (System.nanoTime() - started) / 1_000_000,
				Threads.current());
	}

	/**
	 * Asks one downstream branch per entry of {@code latencies} at once (branch {@code i}
	 * is {@code /work/steps?latency=<latencies[i]>}, or {@code /work/fail?latency=..} for
	 * the {@code failing} one) and answers with the first that succeeds, as a cache-1 /
	 * cache-2 / database race does. {@code join} chooses how:
	 * <ul>
	 * <li>{@code first}: a {@link FirstSuccessScope#shutdownOnSuccess()}; the first
	 * success interrupts the other branches, whose calls the downstream sees
	 * abandoned;</li>
	 * <li>{@code all}: {@link FirstSuccessScope#waitingForAll()}; the same answer, once
	 * every branch has ended.</li>
	 * </ul>
	 * When every branch fails, the route fails with the first failure.
	 */
	@GetMapping("/first-success")
	FirstSuccessReply firstSuccess(@RequestParam String join, @RequestParam List<String> latencies,
			@RequestParam(required = false) Integer failing) throws Exception {
		if (latencies.isEmpty() || latencies.size() > MAX_BRANCHES) {
			throw new IllegalArgumentException(
					"latencies must name 1 to " + MAX_BRANCHES + " branches, was " + latencies.size());
		}
		if (failing != null && (failing < 0 || failing >= latencies.size())) {
			throw new IllegalArgumentException(
					"failing must be a branch index from 0 to " + (latencies.size() - 1) + ", was " + failing);
		}
		FirstSuccessScope<Branch> scope = switch (join) {
			case "first" -> FirstSuccessScope.shutdownOnSuccess();
			case "all" -> FirstSuccessScope.waitingForAll();
			default -> throw new IllegalArgumentException("join must be 'first' or 'all', was '" + join + "'");
		};
		long started = System.nanoTime();
		try (scope) {
			for (int i = 0; i < latencies.size(); i++) {
				int branch = i;
				URI uri = UriComponentsBuilder.fromUri(this.properties.downstreamUrl())
					.path(Integer.valueOf(branch).equals(failing) ? "/work/fail" : "/work/steps")
					.queryParam("latency", latencies.get(branch))
					.build()
					.toUri();
				scope.fork(() -> new Branch(branch, get(uri)));
			}
			Branch winner = scope.result();
			return new FirstSuccessReply(join, winner.index(), winner.reply(),
					(System.nanoTime() - started) / 1_000_000, Threads.current());
		}
	}

	private Map<?, ?>[] structured(URI first, URI second) throws Exception {
		try (ShutdownOnFailureScope scope = new ShutdownOnFailureScope()) {
			Supplier<Map<?, ?>> a = scope.fork(() -> get(first));
			Supplier<Map<?, ?>> b = scope.fork(() -> get(second));
			scope.join().throwIfFailed();
			return new Map<?, ?>[] { a.get(), b.get() };
		}
	}

	private Map<?, ?>[] futures(URI first, URI second) {
		CompletableFuture<Map<?, ?>> a = CompletableFuture.supplyAsync(() -> get(first), this.futures);
		CompletableFuture<Map<?, ?>> b = CompletableFuture.supplyAsync(() -> get(second), this.futures);
		CompletableFuture.allOf(a, b).join();
		return new Map<?, ?>[] { a.join(), b.join() };
	}

	private Map<?, ?> get(URI uri) {
		return this.downstream.get().uri(uri).retrieve().body(Map.class);
	}

	private URI namedDownstream(String name) {
		URI base = this.properties.downstreams().get(name);
		if (base == null) {
			throw new IllegalArgumentException("via must name one of lab.caller.downstreams "
					+ this.properties.downstreams().keySet() + ", was '" + name + "'");
		}
		return base;
	}

	record CallReply(Map<?, ?> downstream, Threads thread) {
	}

	private record Branch(int index, Map<?, ?> reply) {
	}

	record FirstSuccessReply(String join, int winner, Map<?, ?> reply, long tookMs, Threads thread) {
	}

	record FanOutReply(String join, Map<?, ?> steps, Map<?, ?> via, long tookMs, Threads thread) {
	}

}
