package dev.bottleneckkit.assertions;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.probe.PinningReport;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link PinningReport}; failures print the culprits and the
 * longest pinned stack.
 */
public abstract class AbstractPinningReportAssert<SELF extends AbstractPinningReportAssert<SELF>>
		extends AbstractAssert<SELF, PinningReport> {

	private static final int FRAMES_SHOWN = 15;

	protected AbstractPinningReportAssert(PinningReport actual, Class<?> selfType) {
		super(actual, selfType);
	}

	/** No virtual thread was pinned past the recording threshold. */
	public SELF hasNoPinnedThreads() {
		isNotNull();
		if (this.actual.count() > 0) {
			throwAssertionError(ShouldHaveNoPinnedThreads.shouldHaveNoPinnedThreads(this.actual, FRAMES_SHOWN));
		}
		return this.myself;
	}

	/**
	 * No pinned event was caused by code starting with {@code prefix}: no event's
	 * {@linkplain dev.bottleneckkit.probe.PinningReport.PinnedEvent#culprit() culprit}
	 * (the first frame outside the JDK, the code that blocked while pinned) lies there.
	 * Use it where the claim is about one library's locks and the JDK still pins
	 * elsewhere, e.g. JDK 24+ while a virtual thread waits for another thread to load a
	 * class.
	 */
	public SELF hasNoPinsCausedBy(String prefix) {
		isNotNull();
		long there = this.actual.events().stream().filter((event) -> event.culprit().startsWith(prefix)).count();
		if (there > 0) {
			throwAssertionError(
					ShouldHaveNoPinsCausedBy.shouldHaveNoPinsCausedBy(this.actual, prefix, there, FRAMES_SHOWN));
		}
		return this.myself;
	}

	/** At least {@code events} (1 to 10^9) pinned events were recorded. */
	public SELF hasPinnedAtLeast(int events) {
		isNotNull();
		Knobs.between("events", events, 1, 1_000_000_000);
		if (this.actual.count() < events) {
			throwAssertionError(ShouldHavePinnedAtLeast.shouldHavePinnedAtLeast(this.actual, events, FRAMES_SHOWN));
		}
		return this.myself;
	}

	/**
	 * Every pinned event's stack holds a frame starting with {@code prefix}, e.g.
	 * {@code "com.mysql.cj."}.
	 */
	public SELF hasEveryPinInCode(String prefix) {
		isNotNull();
		long elsewhere = this.actual.events()
			.stream()
			.filter((event) -> event.frames().stream().noneMatch((frame) -> frame.startsWith(prefix)))
			.count();
		if (this.actual.count() == 0 || elsewhere > 0) {
			throwAssertionError(
					ShouldHaveEveryPinInCode.shouldHaveEveryPinInCode(this.actual, prefix, elsewhere, FRAMES_SHOWN));
		}
		return this.myself;
	}

}
