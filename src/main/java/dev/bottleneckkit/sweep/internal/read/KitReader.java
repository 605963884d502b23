package dev.bottleneckkit.sweep.internal.read;

import java.util.ArrayList;
import java.util.List;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.internal.DockerHost;
import dev.bottleneckkit.internal.KitClasses;
import org.testcontainers.containers.GenericContainer;

/**
 * A reader of the kit's own run in a small container beside a service: a class of the kit
 * on the kit's Java image, copied in (nothing is published to a registry), as an
 * unprivileged user, labelled and named as every container of the kit, on a small heap
 * and the client compiler so that it takes little of the cores it reads.
 */
final class KitReader {

	private KitReader() {
	}

	/**
	 * A container, not started, that runs {@code main} with {@code arguments}, named
	 * {@code name} in reports and the reaper's lines.
	 */
	static GenericContainer<?> running(String name, Class<?> main, String... arguments) {
		return running(JavaRuntime.JAVA_21, name, main, arguments);
	}

	/**
	 * The same on {@code runtime}: Java 25 lets the reader call the kernel through the
	 * foreign function API (native access granted to the kit's classes).
	 */
	static GenericContainer<?> running(JavaRuntime runtime, String name, Class<?> main, String... arguments) {
		GenericContainer<?> reader = KitContainers.labelled(new GenericContainer<>(KitImages.java(runtime)))
			.withLabel(DockerHost.NAME_LABEL, name);
		String classPath = KitClasses.copyInto(reader);
		List<String> command = new ArrayList<>(List.of("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx24m",
				"-Xss256k", "-XX:-UsePerfData"));
		if (runtime.feature() >= 22) {
			command.add("--enable-native-access=ALL-UNNAMED");
		}
		command.addAll(List.of("-cp", classPath, main.getName()));
		command.addAll(List.of(arguments));
		reader.withCreateContainerCmdModifier((cmd) -> cmd.withUser("65534:65534").withEntrypoint(command));
		return reader;
	}

}
