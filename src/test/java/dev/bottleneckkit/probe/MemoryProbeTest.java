package dev.bottleneckkit.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import dev.bottleneckkit.probe.MemoryProbe.MemoryReading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Reading what the memory probe reads, without Docker: the start (first 1,500 characters)
 * of real {@code VM.native_memory summary} output of a Temurin 21 JRE in a container and
 * of JDK 25, and cgroup {@code memory.stat} lines.
 */
class MemoryProbeTest {

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "nmt-summary-jdk21.txt, 17, 684, 734, 389120, 460547",
			"nmt-summary-jdk25.txt, 18, 732, 790, 393216, 493144" })
	void readsThreadsStacksHeapAndTotalFromNativeMemoryTracking(String file, int threads, long stackKib, long threadKib,
			long heapKib, long totalKib) throws IOException {
		MemoryReading reading = MemoryProbe.parse("fixture", resource(file), 300L << 20, 20L << 20);

		assertThat(reading.platformThreads()).isEqualTo(threads);
		assertThat(reading.threadStacksCommitted()).isEqualTo(stackKib * 1024);
		assertThat(reading.threadsCommitted()).isEqualTo(threadKib * 1024);
		assertThat(reading.heapCommitted()).isEqualTo(heapKib * 1024);
		assertThat(reading.jvmCommitted()).isEqualTo(totalKib * 1024);
		assertThat(reading.containerBytes()).isEqualTo(300L << 20);
		assertThat(reading.heapUsed()).isEqualTo(20L << 20);
	}

	@Test
	void aJvmWithoutNativeMemoryTrackingGetsOneLineNamingIt() {
		assertThatIllegalStateException()
			.isThrownBy(() -> MemoryProbe.parse("orders", "\nNative memory tracking is not enabled\n", 0, 0))
			.withMessage("Native Memory Tracking's summary of orders has no Thread, Java Heap or Total line; it began: "
					+ "Native memory tracking is not enabled");
	}

	@Test
	void readsAnonymousMemoryFromCgroupV2AndV1() {
		assertThat(MemoryProbe.parseAnonymous("anon 309854208\nfile 12288\nkernel 1327104\n")).isEqualTo(309854208L);
		assertThat(MemoryProbe.parseAnonymous("cache 4096\nrss 310000000\ntotal_cache 4096\ntotal_rss 310001664\n"))
			.as("v1: the hierarchy's total_rss")
			.isEqualTo(310001664L);
		assertThat(MemoryProbe.parseAnonymous("cache 4096\nrss 310000000\n")).isEqualTo(310000000L);
		assertThatIllegalStateException().isThrownBy(() -> MemoryProbe.parseAnonymous("cat: no such file"))
			.withMessageStartingWith("no anon, total_rss or rss line in the container's memory.stat");
	}

	private static String resource(String name) throws IOException {
		try (InputStream in = MemoryProbeTest.class.getResourceAsStream(name)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
