package dev.bottleneckkit.lab.requestlog;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request log's device: every write costs {@code latency} before its bytes reach the
 * file, whatever its size (a sync to a slow disk, a round trip to a log shipper). Counts
 * the lines that reached the file.
 */
final class SlowSink extends OutputStream {

	private final OutputStream file;

	private final Duration latency;

	private final AtomicLong lines = new AtomicLong();

	private final AtomicLong writes = new AtomicLong();

	SlowSink(OutputStream file, Duration latency) {
		this.file = file;
		this.latency = latency;
	}

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		try {
			Thread.sleep(this.latency);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while writing to the slow sink");
		}
		this.file.write(bytes, offset, length);
		this.writes.incrementAndGet();
		long newlines = 0;
		for (int i = offset; i < offset + length; i++) {
			if (bytes[i] == '\n') {
				newlines++;
			}
		}
		this.lines.addAndGet(newlines);
	}

	@Override
	public void flush() throws IOException {
		this.file.flush();
	}

	@Override
	public void close() throws IOException {
		this.file.close();
	}

	/** Lines that reached the file. */
	long lines() {
		return this.lines.get();
	}

	/** Writes made to the device. */
	long writes() {
		return this.writes.get();
	}

}
