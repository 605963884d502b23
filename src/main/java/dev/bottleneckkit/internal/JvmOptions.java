package dev.bottleneckkit.internal;

import java.util.List;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * The one place the kit adds JVM flags to a container: {@code JAVA_TOOL_OPTIONS}, which
 * every HotSpot JVM reads whatever the image's entry point. Flags are appended to what
 * the container already sets, and, at start, behind what the image itself sets in its
 * {@code ENV}: a container's variable replaces the image's, so without this a team's own
 * {@code JAVA_TOOL_OPTIONS} (an agent, a heap size) would be lost.
 */
public final class JvmOptions {

	/** The variable every HotSpot JVM reads. */
	public static final String VARIABLE = "JAVA_TOOL_OPTIONS";

	private JvmOptions() {
	}

	/** Appends {@code flags} to the container's {@code JAVA_TOOL_OPTIONS}, once. */
	public static void append(GenericContainer<?> container, String flags) {
		String existing = container.getEnvMap().get(VARIABLE);
		if (existing == null || existing.isBlank()) {
			container.withEnv(VARIABLE, flags);
		}
		else if (!existing.contains(flags)) {
			container.withEnv(VARIABLE, existing + " " + flags);
		}
	}

	/**
	 * Puts the image's own {@code JAVA_TOOL_OPTIONS} in front of the container's, when
	 * both set it; call once the image is on the engine, before the container is created.
	 */
	public static void keepTheImages(GenericContainer<?> container, String image) {
		String ours = container.getEnvMap().get(VARIABLE);
		if (ours == null || ours.isBlank()) {
			return;
		}
		String[] env = DockerClientFactory.lazyClient().inspectImageCmd(image).exec().getConfig().getEnv();
		String theirs = imageValue((env == null) ? List.of() : List.of(env));
		if (theirs != null && !theirs.isBlank() && !ours.startsWith(theirs)) {
			container.withEnv(VARIABLE, theirs + " " + ours);
		}
	}

	/**
	 * The image's {@code JAVA_TOOL_OPTIONS} among its {@code NAME=value} environment, or
	 * null.
	 */
	static String imageValue(List<String> env) {
		return env.stream()
			.filter((entry) -> entry.startsWith(VARIABLE + "="))
			.map((entry) -> entry.substring(VARIABLE.length() + 1))
			.findFirst()
			.orElse(null);
	}

}
