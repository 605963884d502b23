package dev.bottleneckkit.assertions;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.PinningReport;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link PinningReport}; failures print the culprits and the
 * longest pinned stack.
 */
public class PinningReportAssert extends AbstractAssert<PinningReportAssert, PinningReport> {

	private static final int FRAMES_SHOWN = 15;

	public PinningReportAssert(PinningReport actual) {
		super(actual, PinningReportAssert.class);
	}

	/** No virtual thread was pinned past the recording threshold. */
	public PinningReportAssert hasNoPinnedThreads() {
		isNotNull();
		if (this.actual.count() > 0) {
			failWithMessage("expected no pinned virtual threads, but found %s", this.actual.describe(FRAMES_SHOWN));
		}
		return this;
	}

	/**
	 * No pinned event was caused by code starting with {@code prefix}: no event's
	 * {@linkplain dev.bottleneckkit.probe.PinnedEvent#culprit() culprit} (the first frame
	 * outside the JDK, the code that blocked while pinned) lies there. Use it where the
	 * claim is about one library's locks and the JDK still pins elsewhere, e.g. JDK 24+
	 * while a virtual thread waits for another thread to load a class.
	 */
	public PinningReportAssert hasNoPinsCausedBy(String prefix) {
		isNotNull();
		long there = this.actual.events().stream().filter((event) -> event.culprit().startsWith(prefix)).count();
		if (there > 0) {
			failWithMessage("expected no pinned virtual thread blocked in %s, but %d of %d were: %s", prefix, there,
					this.actual.count(), this.actual.describe(FRAMES_SHOWN));
		}
		return this;
	}

	/** At least {@code events} (1 to 10^9) pinned events were recorded. */
	public PinningReportAssert hasPinnedAtLeast(int events) {
		isNotNull();
		Knobs.between("events", events, 1, 1_000_000_000);
		if (this.actual.count() < events) {
			failWithMessage("expected at least %d pinned events, but found %s", events,
					this.actual.describe(FRAMES_SHOWN));
		}
		return this;
	}

	/**
	 * Every pinned event's stack holds a frame starting with {@code prefix}, e.g.
	 * {@code "com.mysql.cj."}.
	 */
	public PinningReportAssert hasEveryPinInCode(String prefix) {
		isNotNull();
		long elsewhere = this.actual.events()
			.stream()
			.filter((event) -> event.frames().stream().noneMatch((frame) -> frame.startsWith(prefix)))
			.count();
		if (this.actual.count() == 0 || elsewhere > 0) {
			failWithMessage("expected every pinned stack to hold a frame of %s, but %d of %d do not: %s", prefix,
					elsewhere, this.actual.count(), this.actual.describe(FRAMES_SHOWN));
		}
		return this;
	}

}
