package dev.bottleneckkit.containers;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The service container's knobs, without Docker: what they set, and the one line a bad
 * value gets.
 */
class ServiceContainerTest {

	@Test
	void springPropertiesBecomeTheEnvironmentVariablesBootsRelaxedBindingReads() {
		ServiceContainer service = new ServiceContainer("example/orders:1.4.2")
			.withSpringProperty("server.tomcat.threads.max", 50)
			.withSpringProperty("spring.threads.virtual.enabled", true)
			.withSpringProperty("management.endpoints.web.exposure.include", "health,metrics");

		assertThat(service.getEnvMap()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "50")
			.containsEntry("SPRING_THREADS_VIRTUAL_ENABLED", "true")
			.containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,metrics");
		assertThat(service.name()).as("named after the image, without asking Docker for it").isEqualTo("orders");
	}

	@Test
	void theMetersTheProbesReadAreAddedToTheEndpointsATestExposes() {
		ServiceContainer plain = new ServiceContainer("example/orders:1.4.2");
		ServiceContainer own = new ServiceContainer("example/orders:1.4.2")
			.withSpringProperty("management.endpoints.web.exposure.include", "health, info,prometheus");
		ServiceContainer every = new ServiceContainer("example/orders:1.4.2")
			.withSpringProperty("management.endpoints.web.exposure.include", "*");

		plain.exposeSpringBootMeters();
		own.exposeSpringBootMeters();
		every.exposeSpringBootMeters();

		assertThat(plain.getEnvMap())
			.containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,metrics,prometheus")
			.containsEntry("MANAGEMENT_ENDPOINTS_JMX_EXPOSURE_INCLUDE", "health,metrics")
			.containsEntry("SERVER_TOMCAT_MBEANREGISTRY_ENABLED", "true");
		assertThat(own.getEnvMap()).containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE",
				"health,info,prometheus,metrics");
		assertThat(every.getEnvMap()).containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "*");
	}

	@Test
	void jvmOptionsAddUpInJavaToolOptions() {
		ServiceContainer service = new ServiceContainer("example/orders:1.4.2").withJvmOptions("-Xmx256m")
			.withJvmOptions("-XX:+UseSerialGC");

		assertThat(service.getEnvMap()).containsEntry("JAVA_TOOL_OPTIONS", "-Xmx256m -XX:+UseSerialGC");
	}

	@Test
	void badValuesAreRejectedNamingTheKnob() {
		ServiceContainer service = new ServiceContainer("example/orders:1.4.2");

		assertThatIllegalArgumentException().isThrownBy(() -> service.withPort(0))
			.withMessage("port must be between 1 and 65535, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> service.withHealthPath("actuator/health"))
			.withMessage("healthPath must start with '/', was 'actuator/health'");
		assertThatIllegalArgumentException().isThrownBy(() -> service.withSpringProperty("Server.Port", 8081))
			.withMessage(
					"Spring property must be in canonical form (lower-case, '.' and '-'), e.g. server.tomcat.threads.max,"
							+ " was 'Server.Port'");
		assertThatIllegalArgumentException().isThrownBy(() -> service.withCpuLimit(0))
			.withMessage("cpus must be between 0.1 and 64.0, was 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> service.withMemoryLimit(8))
			.withMessage("mebibytes must be between 16 and 1048576, was 8");
		assertThatIllegalArgumentException().isThrownBy(() -> service.withName("my service"))
			.withMessage("name must be 1 to 60 letters, digits, '.', '_' or '-', was 'my service'");
	}

}
