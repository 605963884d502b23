package dev.bottleneckkit.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * How often the A/B guard is right, for {@code bench/ab-calibration.sh}: it runs the
 * guard of one route N times as A/A (the base image against itself), N times against a
 * head whose capacity is cut by a fifth, and N times by a tenth, each run from two fresh
 * containers, and prints each run's verdict and then, at the default bound of 5 %: the
 * A/A false regressions, the detections, the median half-width of the ceiling's interval,
 * and the wall time of one guard, both starts included. Arguments: N, the base image, the
 * head cut by a fifth, the head cut by a tenth, the route.
 */
public final class ABCalibration {

	private ABCalibration() {
	}

	public static void main(String[] args) {
		int n = Integer.parseInt(args[0]);
		String base = args[1];
		String route = args[4];
		List<Kind> kinds = List.of(new Kind("A/A", base, false), new Kind("A/B −20 %", args[2], true),
				new Kind("A/B −10 %", args[3], true));
		for (Kind kind : kinds) {
			for (int i = 1; i <= n; i++) {
				long started = System.nanoTime();
				try (ServiceContainer head = new ServiceContainer(kind.head()).withName("calibration-head")) {
					head.start();
					SweepResult sweep = Sweep.of(head, route)
						.named(kind.name() + " #" + i)
						.upToUsers(32)
						.against(base)
						.run();
					ABComparison comparison = sweep.comparison().orElseThrow();
					kind.runs().add(new Run(comparison, Duration.ofNanos(System.nanoTime() - started)));
					System.out.printf(Locale.ROOT,
							"[calibration] %s #%d: %s, ceiling B/A %.3f (%.3f–%.3f), %d blocks, %d s%n", kind.name(), i,
							comparison.regressed(ABComparison.DEFAULT_BOUND) ? "REGRESSED" : "green",
							comparison.figure("ceiling").orElseThrow().ratio(),
							comparison.figure("ceiling").orElseThrow().low(),
							comparison.figure("ceiling").orElseThrow().high(), comparison.blocks(),
							(System.nanoTime() - started) / 1_000_000_000);
				}
			}
		}
		System.out.println();
		System.out.println("[calibration] at the default bound of 5 %, " + n + " runs each:");
		for (Kind kind : kinds) {
			long regressed = kind.runs()
				.stream()
				.filter((run) -> run.comparison().regressed(ABComparison.DEFAULT_BOUND))
				.count();
			List<Double> halfWidths = kind.runs()
				.stream()
				.map((run) -> run.comparison().figure("ceiling").orElseThrow().halfWidth())
				.sorted()
				.toList();
			List<Long> seconds = kind.runs().stream().map((run) -> run.took().toSeconds()).sorted().toList();
			System.out.printf(Locale.ROOT,
					"[calibration] %-10s %s %d of %d; ceiling's interval half-width median ±%.1f %% (%.1f–%.1f); one guard %d s median (%d–%d)%n",
					kind.name(), kind.regression() ? "detected" : "false regressions", regressed, kind.runs().size(),
					100 * halfWidths.get(halfWidths.size() / 2), 100 * halfWidths.get(0),
					100 * halfWidths.get(halfWidths.size() - 1), seconds.get(seconds.size() / 2), seconds.get(0),
					seconds.get(seconds.size() - 1));
		}
	}

	private record Kind(String name, String head, boolean regression, List<Run> runs) {

		Kind(String name, String head, boolean regression) {
			this(name, head, regression, new ArrayList<>());
		}

	}

	private record Run(ABComparison comparison, Duration took) {
	}

}
