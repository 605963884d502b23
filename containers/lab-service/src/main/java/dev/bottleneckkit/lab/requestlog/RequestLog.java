package dev.bottleneckkit.lab.requestlog;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;

/**
 * The request log's Logback set-up, attached to the logger {@code lab.request-log} (not
 * additive, so the lines go nowhere else) for this application's life: an
 * {@code OutputStreamAppender} on an 8 KB buffer on the {@link SlowSink}, flushing each
 * line ({@code sync}) or behind an {@code AsyncAppender} and flushing when the buffer is
 * full ({@code async}).
 */
final class RequestLog implements DisposableBean {

	static final String LOGGER = "lab.request-log";

	/**
	 * Logback's default AsyncAppender queue is 256; a larger one absorbs bursts while the
	 * worker writes.
	 */
	static final int QUEUE_SIZE = 1024;

	private final RequestLogProperties properties;

	private final Logger logger;

	private final SlowSink sink;

	private final Appender<ILoggingEvent> appender;

	private final AtomicLong logged = new AtomicLong();

	RequestLog(RequestLogProperties properties) {
		this.properties = properties;
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		try {
			this.sink = new SlowSink(
					Files.newOutputStream(properties.file(), StandardOpenOption.CREATE, StandardOpenOption.APPEND),
					properties.sinkLatency());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot open the request log " + properties.file(), ex);
		}
		boolean async = properties.appender() == RequestLogProperties.Appender.ASYNC;
		PatternLayoutEncoder encoder = new PatternLayoutEncoder();
		encoder.setContext(context);
		encoder.setPattern("%d{ISO8601} [%thread] %msg%n");
		encoder.start();
		OutputStreamAppender<ILoggingEvent> writer = new OutputStreamAppender<>();
		writer.setContext(context);
		writer.setName("request-log-writer");
		writer.setEncoder(encoder);
		writer.setImmediateFlush(!async);
		writer.setOutputStream(new BufferedOutputStream(this.sink, 8192));
		writer.start();
		if (async) {
			AsyncAppender queue = new AsyncAppender();
			queue.setContext(context);
			queue.setName("request-log-async");
			queue.setQueueSize(QUEUE_SIZE);
			queue.setDiscardingThreshold(0);
			queue.addAppender(writer);
			queue.start();
			this.appender = queue;
		}
		else {
			this.appender = writer;
		}
		this.logger = context.getLogger(LOGGER);
		this.logger.setAdditive(false);
		this.logger.setLevel(Level.INFO);
		this.logger.addAppender(this.appender);
	}

	/** Logs one request's line through the configured appender. */
	void log(String method, String uri, int status, long tookMs) {
		this.logger.info("{} {} {} {} ms", method, uri, status, tookMs);
		this.logged.incrementAndGet();
	}

	Reading read() {
		int queued = (this.appender instanceof AsyncAppender queue) ? queue.getNumberOfElementsInQueue() : 0;
		return new Reading(this.properties.appender().name().toLowerCase(java.util.Locale.ROOT),
				this.properties.sinkLatency().toMillis(), this.logged.get(), this.sink.lines(), this.sink.writes(),
				queued);
	}

	@Override
	public void destroy() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

	/**
	 * @param appender {@code sync} or {@code async}
	 * @param sinkLatencyMs what one write to the sink costs
	 * @param logged lines the application logged
	 * @param written lines that reached the file (logged minus those queued or in the 8
	 * KB buffer)
	 * @param sinkWrites writes made to the sink
	 * @param queued lines waiting in the AsyncAppender's queue
	 */
	record Reading(String appender, long sinkLatencyMs, long logged, long written, long sinkWrites, int queued) {
	}

}
