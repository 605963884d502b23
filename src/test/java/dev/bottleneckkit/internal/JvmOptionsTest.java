package dev.bottleneckkit.internal;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;

import static org.assertj.core.api.Assertions.assertThat;

class JvmOptionsTest {

	@Test
	void flagsAreAppendedOnceToWhatTheContainerSets() {
		try (GenericContainer<?> container = new GenericContainer<>("example/orders:1.4.2")) {
			container.withEnv(JvmOptions.VARIABLE, "-Xmx256m");

			JvmOptions.append(container, "-XX:NativeMemoryTracking=summary");
			JvmOptions.append(container, "-XX:NativeMemoryTracking=summary");

			assertThat(container.getEnvMap()).containsEntry(JvmOptions.VARIABLE,
					"-Xmx256m -XX:NativeMemoryTracking=summary");
		}
	}

	@Test
	void theImagesOwnValueIsReadFromItsEnvironment() {
		assertThat(JvmOptions.imageValue(List.of("PATH=/usr/bin", "JAVA_TOOL_OPTIONS=-javaagent:/otel.jar -Xss512k")))
			.isEqualTo("-javaagent:/otel.jar -Xss512k");
		assertThat(JvmOptions.imageValue(List.of("PATH=/usr/bin"))).isNull();
	}

}
