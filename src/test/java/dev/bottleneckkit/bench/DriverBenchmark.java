package dev.bottleneckkit.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import org.HdrHistogram.Recorder;

/**
 * A closed loop as a command, for {@code bench/driver-vs-wrk.sh}: prints one line of
 * figures comparable with wrk's. Arguments: client, URL, connections, seconds. Clients:
 * {@code kit} (the kit's driver, an event loop on NIO) and {@code jdk} (virtual-thread
 * users on {@code java.net.http.HttpClient}, which the driver used until it was measured
 * here at 0.2–0.4 of wrk's requests/s).
 */
public final class DriverBenchmark {

	private static final Duration WARM_UP = Duration.ofSeconds(Long.getLong("bench.warmup", 2));

	private DriverBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		String client = args[0];
		URI target = URI.create(args[1]);
		int connections = Integer.parseInt(args[2]);
		Duration window = Duration.ofSeconds(Integer.parseInt(args[3]));
		switch (client) {
			case "kit" -> {
				LoadResult result = ClosedLoopLoad.users(connections)
					.warmUp(WARM_UP)
					.forDuration(window)
					.named("kit driver")
					.run(target);
				print(result.throughput(), result.latencyAt(50), result.latencyAt(90), result.latencyAt(99),
						result.errorCount());
			}
			case "jdk" -> jdkHttpClient(target, connections, window);
			default -> throw new IllegalArgumentException("client must be 'kit' or 'jdk', was '" + client + "'");
		}
	}

	/**
	 * The closed loop on the JDK's HttpClient: a virtual thread per user, HTTP/1.1,
	 * kept-alive connections.
	 */
	private static void jdkHttpClient(URI target, int connections, Duration window) throws InterruptedException {
		Recorder latencies = new Recorder(3);
		LongAdder succeeded = new LongAdder();
		LongAdder failed = new LongAdder();
		long start = System.nanoTime();
		long windowStart = start + WARM_UP.toNanos();
		long windowEnd = windowStart + window.toNanos();
		HttpRequest request = HttpRequest.newBuilder(target).GET().build();
		try (HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.executor(Executors.newVirtualThreadPerTaskExecutor())
			.build(); ExecutorService users = Executors.newVirtualThreadPerTaskExecutor()) {
			for (int i = 0; i < connections; i++) {
				users.submit(() -> {
					for (long sent = System.nanoTime(); sent < windowEnd; sent = System.nanoTime()) {
						boolean ok;
						try {
							ok = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2;
						}
						catch (IOException | InterruptedException ex) {
							ok = false;
						}
						long done = System.nanoTime();
						if (done >= windowStart && done <= windowEnd) {
							(ok ? succeeded : failed).increment();
							if (ok) {
								latencies.recordValue((done - sent) / 1000);
							}
						}
					}
				});
			}
		}
		var histogram = latencies.getIntervalHistogram();
		print(succeeded.sum() / (window.toNanos() / 1e9), micros(histogram.getValueAtPercentile(50)),
				micros(histogram.getValueAtPercentile(90)), micros(histogram.getValueAtPercentile(99)), failed.sum());
	}

	private static Duration micros(long micros) {
		return Duration.ofNanos(micros * 1000);
	}

	private static void print(double rps, Duration p50, Duration p90, Duration p99, long errors) {
		System.out.printf(Locale.ROOT, "RESULT rps=%.1f p50_us=%d p90_us=%d p99_us=%d errors=%d%n", rps,
				p50.toNanos() / 1000, p90.toNanos() / 1000, p99.toNanos() / 1000, errors);
	}

}
