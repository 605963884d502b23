package dev.bottleneckkit.kit.containers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import dev.bottleneckkit.kit.images.JavaRuntime;
import dev.bottleneckkit.kit.images.KitImages;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Builds the lab-service image ({@code containers/lab-service/Dockerfile} plus the Spring Boot jar) once
 * per Java runtime per JVM, and removes it when the JVM exits (or, if the JVM is killed, the next run's
 * leftover reaping does).
 */
final class LabServiceImage {

	private static final Map<JavaRuntime, Future<String>> images = new ConcurrentHashMap<>();

	private LabServiceImage() {
	}

	static Future<String> of(JavaRuntime runtime) {
		return images.computeIfAbsent(runtime, LabServiceImage::build);
	}

	private static Future<String> build(JavaRuntime runtime) {
		Path jar = Path.of(System.getProperty("bottleneck.lab-jar", "target/bottleneck-kit-0.1.0-SNAPSHOT.jar"));
		Path dockerfile = Path.of(System.getProperty("bottleneck.containers-dir", "containers"), "lab-service", "Dockerfile");
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The lab-service jar is missing at " + jar.toAbsolutePath()
					+ ": build it first (./mvnw package -DskipTests), or run the scenarios with ./mvnw verify");
		}
		return new ImageFromDockerfile("bottleneck-kit/lab-service", true).withFileFromPath("Dockerfile", dockerfile)
			.withFileFromPath("app.jar", jar)
			.withBuildArg("JAVA_IMAGE", KitImages.java(runtime).asCanonicalNameString())
			.withBuildImageCmdModifier((cmd) -> cmd.withLabels(KitResources.ownerLabels()));
	}

}
