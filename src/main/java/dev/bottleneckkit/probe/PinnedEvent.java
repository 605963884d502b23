package dev.bottleneckkit.probe;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One {@code jdk.VirtualThreadPinned} event: a virtual thread that blocked while it could
 * not unmount from its carrier.
 *
 * @param start when the pinned block began
 * @param duration how long the carrier was held
 * @param thread the virtual thread's name (often empty)
 * @param frames the stack, top first, as {@code type.method:line}
 * @param pinnedReason why it could not unmount, as JDK 24+ records it
 * ({@code Native or VM frame on stack}); empty on JDK 21–23
 * @param blockingOperation what it blocked in, as JDK 24+ records it
 * ({@code Object.wait}, {@code LockSupport.park}); empty on JDK 21–23
 */
public record PinnedEvent(Instant start, Duration duration, String thread, List<String> frames,
		Optional<String> pinnedReason, Optional<String> blockingOperation) {

	/** An event as JDK 21–23 record it: no reason, no blocking operation. */
	public PinnedEvent(Instant start, Duration duration, String thread, List<String> frames) {
		this(start, duration, thread, frames, Optional.empty(), Optional.empty());
	}

	/**
	 * The first frame outside the JDK: the code that blocked while pinned (e.g.
	 * {@code com.mysql.cj.protocol.ReadAheadInputStream.fill}), or the top frame if every
	 * frame is the JDK's.
	 */
	public String culprit() {
		return Frames.firstOutsideJdk(this.frames);
	}

}
