package dev.bottleneckkit.kit.load;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * Sends the load's GETs over HTTP/1.1 (JDK client, connections kept alive, one per concurrent request)
 * and names each failure's kind: {@code http-503}, {@code timeout}, {@code connect-refused}, …
 */
final class HttpSender implements AutoCloseable {

	private final HttpClient client;

	private final HttpRequest request;

	HttpSender(URI target, Duration requestTimeout) {
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.executor(Executors.newVirtualThreadPerTaskExecutor())
			.build();
		this.request = HttpRequest.newBuilder(target).timeout(requestTimeout).GET().build();
	}

	/** Sends one request and blocks for its answer: null when it succeeded (2xx), else the failure's kind. */
	String send() {
		try {
			HttpResponse<Void> response = this.client.send(this.request, HttpResponse.BodyHandlers.discarding());
			int status = response.statusCode();
			return (status >= 200 && status < 300) ? null : "http-" + status;
		}
		catch (HttpConnectTimeoutException ex) {
			return "connect-timeout";
		}
		catch (HttpTimeoutException ex) {
			return "timeout";
		}
		catch (ConnectException ex) {
			return "connect-refused";
		}
		catch (IOException ex) {
			return "io-" + ex.getClass().getSimpleName();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	@Override
	public void close() {
		this.client.shutdownNow();
	}

}
