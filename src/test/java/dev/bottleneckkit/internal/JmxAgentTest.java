package dev.bottleneckkit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class JmxAgentTest {

	@Test
	void theAgentsPortIsFreeAndBelowThePortsDockerHandsOut() {
		int ephemeral = JmxAgent.ephemeralRangeStart(Path.of(JmxAgent.EPHEMERAL_RANGE));
		Set<Integer> ports = new HashSet<>();
		for (int i = 0; i < 20; i++) {
			ports.add(JmxAgent.freePort());
		}

		assertThat(ports).as("20 ports, none handed out twice").hasSize(20);
		assertThat(ephemeral).as("the kernel's first ephemeral port").isGreaterThan(JmxAgent.LOWEST_PORT + 1_000);
		assertThat(ports).allSatisfy((port) -> assertThat(port).isBetween(JmxAgent.LOWEST_PORT, ephemeral - 1));
	}

	@Test
	void theEphemeralRangeIsReadFromTheKernelOrTakenAsLinuxsDefault(@TempDir Path dir) throws IOException {
		Path range = Files.writeString(dir.resolve("ip_local_port_range"), "40000\t60999\n");

		assertThat(JmxAgent.ephemeralRangeStart(range)).isEqualTo(40_000);
		assertThat(JmxAgent.ephemeralRangeStart(dir.resolve("absent"))).isEqualTo(32_768);
	}

}
