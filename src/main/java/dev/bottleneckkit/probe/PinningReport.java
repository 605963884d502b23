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
		text.append(String.format(Locale.ROOT, "%n  longest (%d ms, %s), top of stack:", longest.duration().toMillis(),
				longest.why()));
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

		/** JDK 24+'s reason for a wait on another thread's class initialization. */
		private static final java.util.regex.Pattern INITIALIZATION = java.util.regex.Pattern
			.compile("Waited for initialization of (\\S+) by another thread");

		/** An event as JDK 21–23 record it: no reason, no blocking operation. */
		public PinnedEvent(Instant start, Duration duration, String thread, List<String> frames) {
			this(start, duration, thread, frames, Optional.empty(), Optional.empty());
		}

		/**
		 * What the virtual thread was pinned by: where it waited for another thread to
		 * initialize a class, {@code initialization of sun.nio.ch.Poller (by another
		 * thread)}, whatever code touched the class; else the first frame outside the
		 * JDK, the code that blocked while pinned (e.g.
		 * {@code com.mysql.cj.protocol.ReadAheadInputStream.fill}), or the top frame if
		 * every frame is the JDK's.
		 */
		public String culprit() {
			return initializationWaitedFor().map((type) -> "initialization of " + type + " (by another thread)")
				.orElseGet(() -> Frames.firstOutsideJdk(this.frames));
		}

		/**
		 * The class whose initialization by another thread the virtual thread waited for,
		 * as JDK 24+ records it ({@code Waited for initialization of X by another
		 * thread}): a wait each class costs once, not a lock its code holds.
		 */
		public Optional<String> initializationWaitedFor() {
			return this.pinnedReason.map(INITIALIZATION::matcher)
				.filter(java.util.regex.Matcher::matches)
				.map((matched) -> matched.group(1));
		}

		/**
		 * Whether it pinned for a class's initialization, which each class costs once,
		 * rather than on a path every request may take: it waited for another thread's
		 * initialization of a class, or blocked inside an initializer of its own
		 * ({@code <clinit>} on its stack). Such an event holds no carrier per request.
		 */
		public boolean oneTime() {
			return initializationWaitedFor().isPresent()
					|| this.frames.stream().anyMatch((frame) -> frame.contains(".<clinit>"))
					|| this.pinnedReason.filter((reason) -> reason.contains(".<clinit>")).isPresent();
		}

		/**
		 * Why it was pinned, in words: {@code pinned: Monitor held; blocked in
		 * Object.wait}, as JDK 24+ records it; on JDK 21–23, which record no reason,
		 * {@code pinned (no reason recorded before JDK 24)}.
		 */
		public String why() {
			return this.pinnedReason.map((reason) -> "pinned: " + reason)
				.orElse("pinned (no reason recorded before JDK 24)")
					+ this.blockingOperation.map((operation) -> "; blocked in " + operation).orElse("");
		}

	}

}
