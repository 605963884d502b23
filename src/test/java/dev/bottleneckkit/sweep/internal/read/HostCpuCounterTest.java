package dev.bottleneckkit.sweep.internal.read;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HostCpuCounterTest {

	private static final String SERVICE = "3f".repeat(32);

	private static final String DATABASE = "a0".repeat(32);

	private static final String QUOTES = "b1".repeat(32);

	/**
	 * An engine host's cgroups as a remote engine has them: v1 under the cgroupfs driver
	 * (Debian's Docker in a container of its own, .ci/remote-engine.sh), v2 under the
	 * systemd driver; other groups are not containers.
	 */
	@Test
	void readsEachContainersCgroupOnTheEnginesHost(@TempDir Path root) throws Exception {
		write(root.resolve("cpuacct/docker/" + SERVICE + "/cpuacct.usage"), "1203000000\n");
		write(root.resolve("cpuacct/docker/" + DATABASE + "/cpuacct.usage"), "88000000\n");
		write(root.resolve("cpuacct/docker/cpuacct.usage"), "999\n");
		write(root.resolve("system.slice/docker-" + QUOTES + ".scope/cpu.stat"),
				"usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n");
		write(root.resolve("system.slice/ssh.service/cpu.stat"), "usage_usec 7\n");
		assertThat(HostCpuCounter.containers(root))
			.isEqualTo(Map.of(SERVICE, 1_203_000_000L, DATABASE, 88_000_000L, QUOTES, 2_500_000L));
	}

	@Test
	void aLineOfTheReaderGivesTheMachineAndEachContainer() {
		String line = HostCpuCounter.MARK + " machine=81234000000 " + SERVICE + "=1203000000 " + DATABASE + "=88000000";
		HostCpuCounter.Line parsed = HostCpuCounter.parse(line).orElseThrow();
		assertThat(parsed.machineBusyNanos()).hasValue(81_234_000_000L);
		assertThat(parsed.containers()).isEqualTo(Map.of(SERVICE, 1_203_000_000L, DATABASE, 88_000_000L));
		assertThat(HostCpuCounter.parse("Picked up JAVA_TOOL_OPTIONS: -Xss256k")).isEmpty();
	}

	@Test
	void aMachineWhoseTotalWasUnreadHasNone() {
		assertThat(HostCpuCounter.parse(HostCpuCounter.MARK + " " + SERVICE + "=5").orElseThrow().machineBusyNanos())
			.isEmpty();
	}

	@Test
	void theMachinesBusyTimeLeavesOutIdleAndIowait() {
		// user nice system idle iowait irq softirq steal, in ticks of 10 ms
		assertThat(HostCpuCounter.busyNanos("cpu  100 0 50 9000 300 5 5 0 0 0")).hasValue(1_600_000_000L);
	}

	private static void write(Path file, String content) throws Exception {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

}
