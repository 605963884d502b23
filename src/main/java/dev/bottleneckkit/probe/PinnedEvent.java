package dev.bottleneckkit.probe;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One {@code jdk.VirtualThreadPinned} event: a virtual thread that blocked while it could
 * not unmount from its carrier.
 *
 * @param start when the pinned block began
 * @param duration how long the carrier was held
 * @param thread the virtual thread's name (often empty)
 * @param frames the stack, top first, as {@code type.method:line}
 */
public record PinnedEvent(Instant start, Duration duration, String thread, List<String> frames) {

	/**
	 * The first frame outside the JDK: the code that blocked while pinned (e.g.
	 * {@code com.mysql.cj.protocol.ReadAheadInputStream.fill}), or the top frame if every
	 * frame is the JDK's.
	 */
	public String culprit() {
		return Frames.firstOutsideJdk(this.frames);
	}

}
