package dev.bottleneckkit.lab.requestlog;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Knobs of the request log ({@code lab.request-log.*}): one line per {@code /work/**}
 * request, written through Logback to a sink that costs {@code sinkLatency} per write, as
 * a disk that syncs each write or a log shipper that acknowledges each one does.
 *
 * @param appender {@code none} (default: no request log), {@code sync} or {@code async}
 * @param sinkLatency what one write to the sink costs, 0 to 10 s (default 20 ms)
 * @param file where the lines end up
 */
@ConfigurationProperties("lab.request-log")
public record RequestLogProperties(@DefaultValue("none") Appender appender, @DefaultValue("20ms") Duration sinkLatency,
		@DefaultValue("/tmp/lab-requests.log") Path file) {

	static final Duration MAX_SINK_LATENCY = Duration.ofSeconds(10);

	public RequestLogProperties {
		if (sinkLatency.isNegative() || sinkLatency.compareTo(MAX_SINK_LATENCY) > 0) {
			throw new IllegalArgumentException("lab.request-log.sink-latency must be between 0 ms and "
					+ MAX_SINK_LATENCY.toSeconds() + " s, was " + sinkLatency.toMillis() + " ms");
		}
	}

	/** How the request log reaches its sink. */
	public enum Appender {

		/** No request log. */
		NONE,

		/**
		 * Logback's {@code OutputStreamAppender} as configured by default
		 * ({@code immediateFlush=true}): the request's own thread writes its line to the
		 * sink while it holds the appender's lock.
		 */
		SYNC,

		/**
		 * Logback's {@code AsyncAppender} (never discarding, blocking only when its queue
		 * is full) in front of the same appender with {@code immediateFlush=false}:
		 * request threads only queue their line; one worker thread writes them, 8 KB per
		 * write to the sink.
		 */
		ASYNC

	}

}
