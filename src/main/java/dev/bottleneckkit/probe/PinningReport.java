package dev.bottleneckkit.probe;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a {@link PinningProbe} read: the pinned events since recording started, and the
 * {@code .jfr} file they came from (kept as evidence; open it in JDK Mission Control).
 *
 * @param jfrFile the snapshot the events were read from
 * @param events the pinned events, oldest first
 */
public record PinningReport(Path jfrFile, List<PinnedEvent> events) {

	/** How many pinned events were recorded. */
	public int count() {
		return this.events.size();
	}

	/** Carrier time lost to pinning, summed over all events. */
	public Duration totalPinned() {
		return this.events.stream().map(PinnedEvent::duration).reduce(Duration.ZERO, Duration::plus);
	}

	/**
	 * The culprit frames ({@link PinnedEvent#culprit()}) by how many events they caused,
	 * most first.
	 */
	public Map<String, Long> culprits() {
		return this.events.stream()
			.collect(Collectors.groupingBy(PinnedEvent::culprit, Collectors.counting()))
			.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
	}

	/**
	 * "24 pinned events, 24.1 s pinned; culprits: com.mysql…fill ×24" plus the longest
	 * event's stack.
	 */
	public String describe(int maxFrames) {
		StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%d pinned event(s), %.2f s pinned in all",
				count(), totalPinned().toMillis() / 1000.0));
		if (this.events.isEmpty()) {
			return text.append(" (recording ").append(this.jfrFile).append(")").toString();
		}
		text.append("; culprits: ");
		text.append(culprits().entrySet()
			.stream()
			.limit(5)
			.map((entry) -> entry.getKey() + " ×" + entry.getValue())
			.collect(Collectors.joining(", ")));
		PinnedEvent longest = this.events.stream().max(Comparator.comparing(PinnedEvent::duration)).orElseThrow();
		text.append(String.format(Locale.ROOT, "%n  longest (%d ms), top of stack:", longest.duration().toMillis()));
		longest.frames().stream().limit(maxFrames).forEach((frame) -> text.append("\n    at ").append(frame));
		text.append("\n  recording: ").append(this.jfrFile);
		return text.toString();
	}

	/**
	 * One {@code jdk.VirtualThreadPinned} event: a virtual thread that blocked while it
	 * could not unmount from its carrier.
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
		 * {@code com.mysql.cj.protocol.ReadAheadInputStream.fill}), or the top frame if
		 * every frame is the JDK's.
		 */
		public String culprit() {
			return Frames.firstOutsideJdk(this.frames);
		}

	}

}
