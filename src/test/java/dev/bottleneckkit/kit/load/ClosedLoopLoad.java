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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.bottleneckkit.kit.internal.Knobs;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A closed-loop load: {@code users} virtual users, each sending its next GET as soon as the last one
 * answered, over real HTTP/1.1 connections, for a duration or a request count. The first {@code warmUp}
 * of the run is left out of the figures (JIT, connection set-up); the timeline keeps it.
 *
 * <pre>{@code
 * LoadResult result = ClosedLoopLoad.users(40)
 *     .warmUp(Duration.ofSeconds(3))
 *     .forDuration(Duration.ofSeconds(10))
 *     .run(caller.uri("/call/sleep"));
 * }</pre>
 *
 * A closed loop never has more than {@code users} requests outstanding, so it measures what a service
 * sustains under that concurrency; it cannot overload a dead service.
 */
public final class ClosedLoopLoad {

	private static final Logger log = LoggerFactory.getLogger(ClosedLoopLoad.class);

	/** Most users one run may start: each is a virtual thread with its own connection. */
	public static final int MAX_USERS = 10_000;

	public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(2);

	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration MAX_RUN = Duration.ofMinutes(30);

	private final int users;

	private final Duration warmUp;

	private final Duration duration;

	private final long requests;

	private final Duration requestTimeout;

	private final String name;

	private ClosedLoopLoad(int users, Duration warmUp, Duration duration, long requests, Duration requestTimeout,
			String name) {
		this.users = users;
		this.warmUp = warmUp;
		this.duration = duration;
		this.requests = requests;
		this.requestTimeout = requestTimeout;
		this.name = name;
	}

	/** A closed loop of {@code users} concurrent users, 1 to 10 000; runs 10 s after a 2 s warm-up unless told. */
	public static ClosedLoopLoad users(int users) {
		return new ClosedLoopLoad(Knobs.between("users", users, 1, MAX_USERS), DEFAULT_WARM_UP, Duration.ofSeconds(10),
				0, DEFAULT_REQUEST_TIMEOUT, "load");
	}

	/** Time left out of the figures at the start, 0 to 10 min. */
	public ClosedLoopLoad warmUp(Duration warmUp) {
		return new ClosedLoopLoad(this.users, Knobs.between("warmUp", warmUp, Duration.ZERO, Duration.ofMinutes(10)),
				this.duration, this.requests, this.requestTimeout, this.name);
	}

	/** Length of the measurement window after warm-up, 1 s to 30 min. */
	public ClosedLoopLoad forDuration(Duration duration) {
		return new ClosedLoopLoad(this.users, this.warmUp,
				Knobs.between("duration", duration, Duration.ofSeconds(1), MAX_RUN), 0, this.requestTimeout, this.name);
	}

	/** Stop after this many requests have completed in the window (1 to 10^9) instead of after a duration. */
	public ClosedLoopLoad forRequests(long requests) {
		return new ClosedLoopLoad(this.users, this.warmUp, MAX_RUN, Knobs.between("requests", requests, 1, 1_000_000_000L),
				this.requestTimeout, this.name);
	}

	/** How long one request may take before it counts as a {@code timeout} error, 1 ms to 10 min. */
	public ClosedLoopLoad requestTimeout(Duration requestTimeout) {
		return new ClosedLoopLoad(this.users, this.warmUp, this.duration, this.requests,
				Knobs.between("requestTimeout", requestTimeout, Duration.ofMillis(1), Duration.ofMinutes(10)), this.name);
	}

	/** A name for logs and reports. */
	public ClosedLoopLoad named(String name) {
		return new ClosedLoopLoad(this.users, this.warmUp, this.duration, this.requests, this.requestTimeout, name);
	}

	/** Runs the load against {@code target} and blocks until every user has stopped. */
	public LoadResult run(URI target) {
		Run run = new Run(target);
		return run.execute();
	}

	private final class Run {

		private final URI target;

		private final HttpClient client;

		private final Recorder recorder = new Recorder(3);

		private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

		private final LongAdder succeededInWindow = new LongAdder();

		private final int maxSeconds;

		private final AtomicLongArray succeededPerSecond;

		private final AtomicLongArray failedPerSecond;

		private final AtomicLongArray latencyMicrosPerSecond;

		private long startNanos;

		private long windowStartNanos;

		private volatile long windowEndNanos;

		Run(URI target) {
			this.target = target;
			this.client = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(10))
				.executor(Executors.newVirtualThreadPerTaskExecutor())
				.build();
			this.maxSeconds = (int) (ClosedLoopLoad.this.warmUp.plus(ClosedLoopLoad.this.duration)
				.plus(ClosedLoopLoad.this.requestTimeout)
				.toSeconds() + 2);
			this.succeededPerSecond = new AtomicLongArray(this.maxSeconds);
			this.failedPerSecond = new AtomicLongArray(this.maxSeconds);
			this.latencyMicrosPerSecond = new AtomicLongArray(this.maxSeconds);
		}

		LoadResult execute() {
			HttpRequest request = HttpRequest.newBuilder(this.target).timeout(ClosedLoopLoad.this.requestTimeout).GET().build();
			log.info("{}: {} users against {} ({} warm-up, then {})", ClosedLoopLoad.this.name, ClosedLoopLoad.this.users,
					this.target, Knobs.human(ClosedLoopLoad.this.warmUp),
					(ClosedLoopLoad.this.requests > 0) ? ClosedLoopLoad.this.requests + " requests"
							: Knobs.human(ClosedLoopLoad.this.duration));
			this.startNanos = System.nanoTime();
			this.windowStartNanos = this.startNanos + ClosedLoopLoad.this.warmUp.toNanos();
			this.windowEndNanos = this.windowStartNanos + ClosedLoopLoad.this.duration.toNanos();
			try (ExecutorService users = Executors.newVirtualThreadPerTaskExecutor()) {
				for (int i = 0; i < ClosedLoopLoad.this.users; i++) {
					users.submit(() -> user(request));
				}
				users.shutdown();
				awaitWithProgress(users);
			}
			finally {
				this.client.shutdownNow();
			}
			long windowEnd = Math.min(this.windowEndNanos, System.nanoTime());
			Duration window = Duration.ofNanos(Math.max(1, windowEnd - this.windowStartNanos));
			Histogram latencies = this.recorder.getIntervalHistogram();
			Map<String, Long> errorCounts = new TreeMap<>();
			this.errors.forEach((kind, count) -> errorCounts.put(kind, count.sum()));
			LoadResult result = new LoadResult(ClosedLoopLoad.this.name, ClosedLoopLoad.this.users, window,
					this.succeededInWindow.sum(), Map.copyOf(errorCounts), latencies, timeline(windowEnd),
					ClosedLoopLoad.this.warmUp);
			log.info("{}", result.summary());
			return result;
		}

		private void awaitWithProgress(ExecutorService users) {
			try {
				long lastSecond = 0;
				while (!users.awaitTermination(1, TimeUnit.SECONDS)) {
					long second = (System.nanoTime() - this.startNanos) / 1_000_000_000L;
					if (second >= lastSecond + 5) {
						lastSecond = second;
						int index = (int) Math.min(second - 1, this.maxSeconds - 1);
						log.info("{}: {} s, {} rps in the last second", ClosedLoopLoad.this.name, second,
								this.succeededPerSecond.get(index));
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				users.shutdownNow();
			}
		}

		private void user(HttpRequest request) {
			while (!Thread.currentThread().isInterrupted()) {
				long sent = System.nanoTime();
				if (sent >= this.windowEndNanos) {
					return;
				}
				String failure = send(request);
				long done = System.nanoTime();
				record(sent, done, failure);
			}
		}

		private String send(HttpRequest request) {
			try {
				HttpResponse<Void> response = this.client.send(request, HttpResponse.BodyHandlers.discarding());
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

		private void record(long sent, long done, String failure) {
			int second = (int) Math.min((done - this.startNanos) / 1_000_000_000L, this.maxSeconds - 1);
			long micros = (done - sent) / 1000;
			if (failure == null) {
				this.succeededPerSecond.incrementAndGet(second);
			}
			else {
				this.failedPerSecond.incrementAndGet(second);
			}
			this.latencyMicrosPerSecond.addAndGet(second, micros);
			if (done < this.windowStartNanos || done > this.windowEndNanos) {
				return;
			}
			this.recorder.recordValue(Math.max(1, micros));
			if (failure == null) {
				this.succeededInWindow.increment();
				if (ClosedLoopLoad.this.requests > 0 && this.succeededInWindow.sum() >= ClosedLoopLoad.this.requests) {
					this.windowEndNanos = Math.min(this.windowEndNanos, done);
				}
			}
			else {
				this.errors.computeIfAbsent(failure, (kind) -> new LongAdder()).increment();
			}
		}

		private List<LoadResult.Second> timeline(long windowEnd) {
			int seconds = (int) Math.min(this.maxSeconds, (System.nanoTime() - this.startNanos) / 1_000_000_000L + 1);
			List<LoadResult.Second> timeline = new ArrayList<>(seconds);
			for (int s = 0; s < seconds; s++) {
				long ok = this.succeededPerSecond.get(s);
				long failed = this.failedPerSecond.get(s);
				long all = ok + failed;
				double meanMs = (all == 0) ? 0 : this.latencyMicrosPerSecond.get(s) / 1000.0 / all;
				long secondStart = this.startNanos + s * 1_000_000_000L;
				boolean inWindow = secondStart >= this.windowStartNanos && secondStart < windowEnd;
				timeline.add(new LoadResult.Second(s, ok, failed, meanMs, inWindow));
			}
			return timeline;
		}

	}

}
