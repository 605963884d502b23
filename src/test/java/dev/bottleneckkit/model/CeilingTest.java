package dev.bottleneckkit.model;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class CeilingTest {

	private final Ceiling fivePerRoute = Ceiling.of(5, "connections per route", Duration.ofMillis(500));

	@Test
	void capsThroughputAtLimitOverLatency() {
		assertThat(this.fivePerRoute.requestsPerSecond()).as("λ = L / W = 5 / 0.5 s").isCloseTo(10.0, within(1e-9));
		assertThat(this.fivePerRoute.throughputFor(40)).as("40 users cannot pass 5 connections")
			.isCloseTo(10.0, within(1e-9));
		assertThat(this.fivePerRoute.throughputFor(3)).as("3 users fit: 3 / 0.5 s").isCloseTo(6.0, within(1e-9));
	}

	@Test
	void predictsTheQueueingLatencyUsersSee() {
		assertThat(this.fivePerRoute.latencyFor(40)).as("W = L / λ = 40 / 10 rps").isEqualTo(Duration.ofSeconds(4));
		assertThat(this.fivePerRoute.latencyFor(5)).as("no queue: the resource's own latency")
			.isEqualTo(Duration.ofMillis(500));
		assertThat(this.fivePerRoute.saturatedBy(40)).isTrue();
		assertThat(this.fivePerRoute.saturatedBy(5)).isFalse();
	}

	@Test
	void explainsItself() {
		assertThat(this.fivePerRoute.explain()).isEqualTo("5 connections per route / 0.500 s = 10.0 rps");
	}

	@Test
	void rejectsLimitsAndLatenciesOutOfRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> Ceiling.of(0, "threads", Duration.ofSeconds(1)))
			.withMessage("limit must be between 1 and 100000, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> Ceiling.of(1, "threads", Duration.ZERO))
			.withMessage("latency must be between 1 ms and 10 min, was 0 ms");
	}

}
