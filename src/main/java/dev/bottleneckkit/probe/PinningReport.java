package dev.bottleneckkit.probe;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

}
