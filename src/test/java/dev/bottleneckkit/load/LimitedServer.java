package dev.bottleneckkit.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import com.sun.net.httpserver.HttpServer;

/**
 * An in-JVM HTTP server on loopback with a known cap: {@code threads} handler threads,
 * each request holding one for {@code latency}. Its throughput ceiling is threads /
 * latency by construction, which is what the load driver's tests check the driver
 * measures.
 */
public final class LimitedServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService handlers;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private final LongAdder heldNanos = new LongAdder();

	private final LongAdder answered = new LongAdder();

	/** When each client connection sent its first request, by its address. */
	private final java.util.Map<java.net.InetSocketAddress, Long> firstArrivals = new java.util.concurrent.ConcurrentHashMap<>();

	private LimitedServer(int threads, Duration latency, int status, String body) throws IOException {
		this(threads, latency, status, body, Integer.MAX_VALUE);
	}

	/**
	 * A server whose {@code threads} handlers let {@code permits} requests at once take
	 * the latency, and answer the others 503 at once.
	 */
	private LimitedServer(int threads, Duration latency, int status, String body, int permits) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1000);
		this.handlers = Executors.newFixedThreadPool(threads);
		this.server.setExecutor(this.handlers);
		java.util.concurrent.Semaphore admitted = new java.util.concurrent.Semaphore(permits);
		this.server.createContext("/", (exchange) -> {
			if (!admitted.tryAcquire()) {
				exchange.sendResponseHeaders(503, -1);
				exchange.close();
				return;
			}
			long start = System.nanoTime();
			this.firstArrivals.putIfAbsent(exchange.getRemoteAddress(), start);
			this.peak.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
			try {
				Thread.sleep(latency);
				byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(status, (bytes.length == 0) ? -1 : bytes.length);
				if (bytes.length > 0) {
					exchange.getResponseBody().write(bytes);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				this.inFlight.decrementAndGet();
				admitted.release();
				exchange.close();
				this.heldNanos.add(System.nanoTime() - start);
				this.answered.increment();
			}
		});
		this.server.start();
	}

	public static LimitedServer start(int threads, Duration latency) throws IOException {
		return new LimitedServer(threads, latency, 200, "");
	}

	static LimitedServer answering(int status, int threads, Duration latency) throws IOException {
		return new LimitedServer(threads, latency, status, "");
	}

	static LimitedServer answering(int status, String body, int threads, Duration latency) throws IOException {
		return new LimitedServer(threads, latency, status, body);
	}

	/**
	 * A server of many handler threads that lets {@code permits} requests at once take
	 * {@code latency} and answers the rest 503 at once: a limit that refuses.
	 */
	static LimitedServer refusingBeyond(int permits, Duration latency) throws IOException {
		return new LimitedServer(64, latency, 200, "", permits);
	}

	public URI uri() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/");
	}

	/** When each client connection sent its first request (System.nanoTime), in order. */
	java.util.List<Long> firstArrivals() {
		return this.firstArrivals.values().stream().sorted().toList();
	}

	int peakInFlight() {
		return this.peak.get();
	}

	/**
	 * How long a request held a handler thread, on average, as this server measured it:
	 * the latency asked for plus what a busy machine adds to each sleep. The server's
	 * real cap is threads over this hold.
	 */
	Duration meanHold() {
		long count = this.answered.sum();
		if (count == 0) {
			throw new IllegalStateException("no request answered yet");
		}
		return Duration.ofNanos(this.heldNanos.sum() / count);
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.handlers.shutdownNow();
	}

}
