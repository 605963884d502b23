package dev.bottleneckkit.sweep.internal.read;

import java.util.List;

import dev.bottleneckkit.probe.ThreadDump.DumpedThread;

/**
 * What a request thread is in a dump, by the web servers' frames: a thread with one of
 * {@code requestFrames} serves an HTTP request, and a worker with one of
 * {@code idleFrames} waits idle in its pool for the next. The server kinds give the
 * frames, each its own ({@code DumpedServer}); every reading of the dumps asks this one
 * of all of them ({@code ResourceKinds.SERVING}).
 *
 * @param requestFrames frames of a thread serving a request
 * @param idleFrames frames of a worker thread idle in its pool
 */
public record Serving(List<String> requestFrames, List<String> idleFrames) {

	public Serving {
		requestFrames = List.copyOf(requestFrames);
		idleFrames = List.copyOf(idleFrames);
	}

	/** Whether {@code thread} serves a request. */
	public boolean serves(DumpedThread thread) {
		return this.requestFrames.stream().anyMatch(thread::hasFrame);
	}

	/** Whether {@code thread} waits idle in its pool. */
	public boolean idle(DumpedThread thread) {
		return this.idleFrames.stream().anyMatch(thread::hasFrame);
	}

}
