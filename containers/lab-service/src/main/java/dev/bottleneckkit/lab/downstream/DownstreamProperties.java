package dev.bottleneckkit.lab.downstream;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Knobs of the downstream role ({@code lab.downstream.*}). Threads are Spring Boot's own
 * knobs: {@code spring.threads.virtual.enabled} and {@code server.tomcat.threads.max}.
 *
 * @param latency how long {@code /work/sleep} blocks when the request names no latency; 0
 * to 10 min
 * @param cpuIterations SHA-256 rounds {@code /work/cpu} runs when the request names none;
 * 1 to 10^9
 */
@ConfigurationProperties("lab.downstream")
public record DownstreamProperties(@DefaultValue("0ms") Duration latency, @DefaultValue("100000") long cpuIterations) {

	static final Duration MAX_LATENCY = Duration.ofMinutes(10);

	static final long MAX_CPU_ITERATIONS = 1_000_000_000L;

	public DownstreamProperties {
		checkLatency("lab.downstream.latency", latency);
		checkIterations("lab.downstream.cpu-iterations", cpuIterations);
	}

	static Duration checkLatency(String knob, Duration latency) {
		if (latency.isNegative() || latency.compareTo(MAX_LATENCY) > 0) {
			throw new IllegalArgumentException(knob + " must be between 0 ms and " + MAX_LATENCY.toMinutes()
					+ " min, was " + latency.toMillis() + " ms");
		}
		return latency;
	}

	static long checkIterations(String knob, long iterations) {
		if (iterations < 1 || iterations > MAX_CPU_ITERATIONS) {
			throw new IllegalArgumentException(
					knob + " must be between 1 and " + MAX_CPU_ITERATIONS + ", was " + iterations);
		}
		return iterations;
	}

}
