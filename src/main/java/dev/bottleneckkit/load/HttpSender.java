package dev.bottleneckkit.load;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends the load's GETs over HTTP/1.1 (JDK client, connections kept alive, one per concurrent request)
 * and names each failure's kind: {@code http-503}, {@code timeout}, {@code connect-refused}, … When a
 * failed answer's JSON body names its error ({@code {"error":"read-timeout"}}, as the lab services and many
 * APIs do), the kind carries it: {@code http-504 read-timeout}. Bodies of successes are not read.
 */
final class HttpSender implements AutoCloseable {

	private static final Pattern ERROR_KIND = Pattern.compile("\"error\"\\s*:\\s*\"([A-Za-z0-9._-]{1,40})\"");

	/** Reads the body of failures only (at most the first 4 KiB matter); successes are discarded. */
	private static final HttpResponse.BodyHandler<String> FAILURE_BODIES = (info) -> (info.statusCode() / 100 == 2)
			? HttpResponse.BodySubscribers.replacing(null) : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);

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
			HttpResponse<String> response = this.client.send(this.request, FAILURE_BODIES);
			int status = response.statusCode();
			if (status >= 200 && status < 300) {
				return null;
			}
			Matcher kind = (response.body() != null) ? ERROR_KIND.matcher(response.body()) : null;
			return (kind != null && kind.find()) ? "http-" + status + " " + kind.group(1) : "http-" + status;
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
			return ioKind(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	/** The service reset the connection, or closed it without an answer; else the exception's type. */
	static String ioKind(IOException ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT);
			if (message.contains("connection reset")) {
				return "connection-reset";
			}
			if (cause instanceof java.io.EOFException || message.contains("received no bytes")
					|| message.contains("closed") || message.contains("eof reached")) {
				return "connection-closed";
			}
		}
		return "io-" + ex.getClass().getSimpleName();
	}

	@Override
	public void close() {
		this.client.shutdownNow();
	}

}
