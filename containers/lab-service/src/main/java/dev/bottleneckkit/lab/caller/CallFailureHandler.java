package dev.bottleneckkit.lab.caller;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.CompletionException;

import io.github.resilience4j.bulkhead.BulkheadFullException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * Turns a failed downstream call into a status and an error kind a load test can count:
 * {@code
 * pool-timeout} (no connection leased in time, 503),
 * {@code connect-timeout}/{@code connect-refused} (502), {@code read-timeout} (504),
 * {@code connection-reset} (502), {@code downstream-status} (502), {@code bulkhead-full}
 * (429); through WebClient, {@code pool-pending-limit} and {@code pool-acquire-timeout}
 * (503).
 */
@RestControllerAdvice(assignableTypes = CallerController.class)
@Profile("caller")
class CallFailureHandler {

	@ExceptionHandler(ResourceAccessException.class)
	ResponseEntity<Map<String, String>> ioFailure(ResourceAccessException ex) {
		Throwable cause = ex.getCause();
		// HttpClient 5 throws this when no pooled connection was leased within the
		// connection-request timeout.
		if (cause instanceof ConnectionRequestTimeoutException) {
			return failure(HttpStatus.SERVICE_UNAVAILABLE, "pool-timeout", ex);
		}
		if (cause instanceof ConnectTimeoutException) {
			return failure(HttpStatus.BAD_GATEWAY, "connect-timeout", ex);
		}
		if (cause instanceof HttpHostConnectException || cause instanceof ConnectException) {
			return failure(HttpStatus.BAD_GATEWAY, "connect-refused", ex);
		}
		if (cause instanceof SocketTimeoutException) {
			return failure(HttpStatus.GATEWAY_TIMEOUT, "read-timeout", ex);
		}
		if (cause instanceof NoHttpResponseException || cause instanceof java.net.SocketException) {
			return failure(HttpStatus.BAD_GATEWAY, "connection-reset", ex);
		}
		return failure(HttpStatus.BAD_GATEWAY, "io-error", ex);
	}

	/**
	 * WebClient failures: Reactor Netty's pool exceptions come wrapped, and their package
	 * is shaded, so they are recognised by simple name anywhere in the cause chain.
	 */
	@ExceptionHandler(WebClientException.class)
	ResponseEntity<Map<String, String>> webClientFailure(WebClientException ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			switch (cause.getClass().getSimpleName()) {
				case "PoolAcquirePendingLimitException":
					return failure(HttpStatus.SERVICE_UNAVAILABLE, "pool-pending-limit", ex);
				case "PoolAcquireTimeoutException":
					return failure(HttpStatus.SERVICE_UNAVAILABLE, "pool-acquire-timeout", ex);
				default:
			}
		}
		if (ex instanceof WebClientResponseException) {
			return failure(HttpStatus.BAD_GATEWAY, "downstream-status", ex);
		}
		return failure(HttpStatus.BAD_GATEWAY, "io-error", ex);
	}

	/**
	 * A CompletableFuture branch failed: answer for its cause as if it had been thrown
	 * directly.
	 */
	@ExceptionHandler(CompletionException.class)
	ResponseEntity<Map<String, String>> branchFailure(CompletionException ex) {
		return switch (ex.getCause()) {
			case ResourceAccessException io -> ioFailure(io);
			case RestClientResponseException status -> downstreamStatus(status);
			case IllegalArgumentException bad -> badRequest(bad);
			case null, default -> failure(HttpStatus.BAD_GATEWAY, "io-error", ex);
		};
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException ex) {
		return failure(HttpStatus.BAD_REQUEST, "bad-request", ex);
	}

	@ExceptionHandler(BulkheadFullException.class)
	ResponseEntity<Map<String, String>> bulkheadFull(BulkheadFullException ex) {
		return failure(HttpStatus.TOO_MANY_REQUESTS, "bulkhead-full", ex);
	}

	@ExceptionHandler(RestClientResponseException.class)
	ResponseEntity<Map<String, String>> downstreamStatus(RestClientResponseException ex) {
		return failure(HttpStatus.BAD_GATEWAY, "downstream-status", ex);
	}

	private static ResponseEntity<Map<String, String>> failure(HttpStatus status, String kind, Exception ex) {
		return ResponseEntity.status(status).body(Map.of("error", kind, "detail", String.valueOf(ex.getMessage())));
	}

}
