package dev.bottleneckkit.internal;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ContainerCpuTest {

	@Test
	void readsCgroupV2AndV1() {
		assertThat(ContainerCpu.parse("usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n"))
			.isEqualTo(Duration.ofMillis(1500));
		assertThat(ContainerCpu.parse("v1 2500000000\n")).isEqualTo(Duration.ofMillis(2500));
	}

	@Test
	void saysWhatItFoundWhenThereIsNoCpuUse() {
		assertThatIllegalStateException().isThrownBy(() -> ContainerCpu.parse("v1 \n"))
			.withMessage("no CPU use in the container's cgroup (cpu.stat or cpuacct.usage): 'v1'");
	}

}
