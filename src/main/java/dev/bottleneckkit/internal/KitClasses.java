package dev.bottleneckkit.internal;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.MountableFile;

/**
 * The kit's own classes, copied into a container of a stock Java image to run a class of
 * the kit there (a stand-in downstream, a socket reader): nothing is published to a
 * registry. A jar in a consumer's build, a directory in the kit's own.
 */
public final class KitClasses {

	/** Where the kit's classes go in the container. */
	public static final String PATH = "/opt/bottleneck-kit";

	private KitClasses() {
	}

	/**
	 * Copies the kit's classes into {@code container} and returns the class path to give
	 * {@code java -cp}.
	 */
	public static String copyInto(GenericContainer<?> container) {
		Path classes = location();
		String classPath = Files.isDirectory(classes) ? PATH + "/classes" : PATH + "/kit.jar";
		container.withCopyFileToContainer(MountableFile.forHostPath(classes, 0755), classPath);
		return classPath;
	}

	private static Path location() {
		try {
			return Path.of(KitClasses.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException | RuntimeException ex) {
			throw new IllegalStateException("cannot find the kit's classes to run in a container", ex);
		}
	}

}
