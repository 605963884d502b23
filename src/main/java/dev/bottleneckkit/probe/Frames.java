package dev.bottleneckkit.probe;

import java.util.List;

/**
 * Stack frames as the probes read them ({@code class.method}, innermost first): where the
 * JDK ends.
 */
final class Frames {

	/** Packages of the JDK: a frame in one is the JDK's, not the code under test. */
	static final List<String> JDK_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

	private Frames() {
	}

	/** The innermost frame that is not the JDK's, or the top frame if every frame is. */
	static String firstOutsideJdk(List<String> frames) {
		return frames.stream()
			.filter((frame) -> JDK_PACKAGES.stream().noneMatch(frame::startsWith))
			.findFirst()
			.orElse(frames.isEmpty() ? "(no stack)" : frames.get(0));
	}

}
