package dev.bottleneckkit.images;

/** The Java runtimes a lab service or a user's JVM container can run on. */
public enum JavaRuntime {

	/** Java 21: virtual threads pin on {@code synchronized} (before JEP 491). */
	JAVA_21(21),

	/** Java 25: {@code synchronized} no longer pins (JEP 491, JDK 24+). */
	JAVA_25(25);

	private final int feature;

	JavaRuntime(int feature) {
		this.feature = feature;
	}

	/** The feature release: 21 or 25. */
	public int feature() {
		return this.feature;
	}

}
