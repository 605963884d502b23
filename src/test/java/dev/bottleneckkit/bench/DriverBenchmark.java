package dev.bottleneckkit.bench;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;

/**
 * The kit's closed-loop driver as a command, for {@code bench/driver-vs-wrk.sh}: prints one line of
 * figures comparable with wrk's. Arguments: URL, connections, seconds.
 */
public final class DriverBenchmark {

	private DriverBenchmark() {
	}

	public static void main(String[] args) {
		URI target = URI.create(args[0]);
		int connections = Integer.parseInt(args[1]);
		int seconds = Integer.parseInt(args[2]);

		LoadResult result = ClosedLoopLoad.users(connections).warmUp(Duration.ofSeconds(1))
			.forDuration(Duration.ofSeconds(seconds)).named("kit driver").run(target);

		System.out.printf(Locale.ROOT, "RESULT rps=%.1f p50_us=%d p90_us=%d p99_us=%d errors=%d%n", result.throughput(),
				result.latencyAt(50).toNanos() / 1000, result.latencyAt(90).toNanos() / 1000,
				result.latencyAt(99).toNanos() / 1000, result.errorCount());
	}

}
