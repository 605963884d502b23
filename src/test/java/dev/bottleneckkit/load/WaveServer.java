package dev.bottleneckkit.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.sun.net.httpserver.HttpServer;

/**
 * A server that answers like a metronome: every request is held until the next tick, a
 * {@code period} apart, counted from the first request it saw. Users of a closed loop
 * then all come back at once, every period: the waves that make a count over a window
 * read one wave more or less depending on where its edges fall. Or, {@link #skewed}, a
 * server that holds each request for one of two latencies at random.
 */
final class WaveServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

	private final long periodNanos;

	private final AtomicLong firstRequest = new AtomicLong();

	private WaveServer(Duration period) throws IOException {
		this(period, null, null);
	}

	private WaveServer(Duration period, Duration shortHold, Duration longHold) throws IOException {
		this.periodNanos = period.toNanos();
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
		this.server.setExecutor(this.handlers);
		this.server.createContext("/", (exchange) -> {
			long now = System.nanoTime();
			this.firstRequest.compareAndSet(0, now);
			long sinceFirst = now - this.firstRequest.get();
			long nextTick = (shortHold != null)
					? now + (ThreadLocalRandom.current().nextBoolean() ? shortHold : longHold).toNanos()
					: this.firstRequest.get() + (sinceFirst / this.periodNanos + 1) * this.periodNanos;
			for (long left = nextTick - System.nanoTime(); left > 0; left = nextTick - System.nanoTime()) {
				LockSupport.parkNanos(left);
			}
			byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
	}

	/**
	 * A server whose answers leave at the ticks of {@code period}, the first one period
	 * after the first request.
	 */
	static WaveServer ticking(Duration period) throws IOException {
		return new WaveServer(period);
	}

	/**
	 * A server that holds each request for {@code shortHold} or {@code longHold}, at
	 * random, half and half.
	 */
	static WaveServer skewed(Duration shortHold, Duration longHold) throws IOException {
		return new WaveServer(longHold, shortHold, longHold);
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/");
	}

	@Override
	public void close() throws InterruptedException {
		this.server.stop(0);
		this.handlers.shutdownNow();
		this.handlers.awaitTermination(5, TimeUnit.SECONDS);
	}

}
