package dev.bottleneckkit.scenarios.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Builds the lab-service image ({@code containers/lab-service/Dockerfile} plus the Spring
 * Boot jar) once per Java runtime per JVM, tagged with both
 * ({@code bottleneck-kit/lab-service:java21-<pid>}), and removes it when the JVM exits:
 * Testcontainers removes images only through Ryuk, which registry-less machines do not
 * have. If the JVM is killed, the next run's leftover reaping removes it.
 */
final class LabServiceImage {

	private static final Logger log = LoggerFactory.getLogger(LabServiceImage.class);

	private static final Map<JavaRuntime, Future<String>> images = new ConcurrentHashMap<>();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(LabServiceImage::removeBuilt, "bottleneck-kit-lab-images"));
	}

	private LabServiceImage() {
	}

	static Future<String> of(JavaRuntime runtime) {
		return images.computeIfAbsent(runtime, LabServiceImage::build);
	}

	private static void removeBuilt() {
		for (Future<String> image : images.values()) {
			try {
				if (image.isDone() && !image.isCancelled()) {
					DockerClientFactory.instance().client().removeImageCmd(image.get()).withForce(true).exec();
				}
			}
			catch (Exception ex) {
				// The build failed, or the image is gone already; the next run's reaping
				// covers the rest.
				log.debug("lab-service image not removed: {}", ex.toString());
			}
		}
	}

	private static Future<String> build(JavaRuntime runtime) {
		Path jar = Path
			.of(System.getProperty("bottleneck.lab-jar", "target/lab-service/lab-service/target/lab-service.jar"));
		Path dockerfile = Path.of(System.getProperty("bottleneck.containers-dir", "containers"), "lab-service",
				"Dockerfile");
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The lab-service jar is missing at " + jar.toAbsolutePath()
					+ ": ./mvnw verify builds it (containers/lab-service, before the scenarios run)");
		}
		return new ImageFromDockerfile(
				"bottleneck-kit/lab-service:java" + runtime.feature() + "-" + ProcessHandle.current().pid(), true)
			.withFileFromPath("Dockerfile", dockerfile)
			.withFileFromPath("app.jar", jar)
			.withBuildArg("JAVA_IMAGE", KitImages.java(runtime).asCanonicalNameString())
			// Nearly every lab container runs Java 21: its image pays the CDS training
			// run once and every start is ~3 s faster; the Java 25 image serves one
			// container, which the training would not repay.
			.withBuildArg("CDS", Boolean.toString(runtime == JavaRuntime.JAVA_21))
			.withBuildImageCmdModifier((cmd) -> {
				// Added to Testcontainers' own labels, not instead of them: its clean-up
				// at JVM exit finds the image by them.
				Map<String, String> labels = new HashMap<>((cmd.getLabels() != null) ? cmd.getLabels() : Map.of());
				labels.putAll(KitContainers.ownerLabels());
				cmd.withLabels(labels);
			});
	}

}
