package dev.bottleneckkit.internal;

import java.io.InputStream;
import java.time.Duration;

import com.github.dockerjava.api.model.Statistics;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

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

	/**
	 * A remote engine's answer, recorded from Debian's Docker 20.10 in a container of its
	 * own (.ci/remote-engine.sh) for a container spinning on one core: the CPU time is
	 * {@code cpu_stats.cpu_usage.total_usage}, not the engine host's
	 * {@code system_cpu_usage}.
	 */
	@Test
	void readsTheCpuTimeFromARemoteEnginesStatistics() throws Exception {
		Statistics reading;
		try (InputStream json = getClass().getResourceAsStream("/engine/stats-dind-20.10.json")) {
			reading = JsonMapper.builder()
				.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
				.build()
				.readValue(json, Statistics.class);
		}
		assertThat(ContainerCpu.used(reading, "spinner")).isEqualTo(Duration.ofNanos(6_057_362_388L));
		assertThat(reading.getCpuStats().getOnlineCpus()).isEqualTo(2);
	}

	@Test
	void saysWhichContainerTheEngineGaveNoCpuUseFor() {
		assertThatIllegalStateException().isThrownBy(() -> ContainerCpu.used(new Statistics(), "quotes"))
			.withMessage("the Docker engine gave no CPU use for quotes");
	}

}
