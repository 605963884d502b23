package dev.bottleneckkit.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.probe.fixture.PinningFixture;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

/**
 * What the pinning probe costs, for {@code bench/pinning-probe.sh}: the fixture pins as
 * fast as it can (synchronized, Java 21) with and without the probe; prints start-up
 * delay, attach time, the fixture's pins per second in both runs, and the events per
 * second the probe recorded. Argument: seconds per run.
 */
public final class PinningProbeBenchmark {

	static final int THREADS = 32;

	static final int BLOCK_MILLIS = 1;

	private static final Pattern BATCH = Pattern.compile("batch (\\d+) done");

	private PinningProbeBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Duration run = Duration.ofSeconds((args.length > 0) ? Long.parseLong(args[0]) : 10);

		measure(false, Duration.ofSeconds(2)); // warm-up: first container start, class
												// data, page cache
		Figures plain = measure(false, run);
		Figures probed = measure(true, run);

		System.out.printf(Locale.ROOT, "%n%-28s %14s %14s%n", "", "without probe", "with probe");
		System.out.printf(Locale.ROOT, "%-28s %14d %14d%n", "JVM start to ready (ms)", plain.readyMillis,
				probed.readyMillis);
		System.out.printf(Locale.ROOT, "%-28s %14s %14d%n", "probe attach + start (ms)", "-", probed.attachMillis);
		System.out.printf(Locale.ROOT, "%-28s %14.0f %14.0f%n", "fixture pins/s", plain.pinsPerSecond,
				probed.pinsPerSecond);
		System.out.printf(Locale.ROOT, "%-28s %14s %14.0f%n", "events recorded/s", "-", probed.eventsPerSecond);
		System.out.printf(Locale.ROOT, "%-28s %14s %14d%n", "snapshot read (ms)", "-", probed.readMillis);
		System.out.printf(Locale.ROOT, "%nthroughput cost of recording: %.1f %%; events recorded / pins made: %.2f%n",
				100 * (1 - probed.pinsPerSecond / plain.pinsPerSecond), probed.eventsPerSecond / probed.pinsPerSecond);
	}

	private static Figures measure(boolean withProbe, Duration run) throws Exception {
		String classFile = PinningFixture.class.getName().replace('.', '/') + ".class";
		try (GenericContainer<?> fixture = KitContainers
			.guarded(new GenericContainer<>(KitImages.java(JavaRuntime.JAVA_21)))
			.withCopyFileToContainer(MountableFile.forClasspathResource(classFile), "/fixture/" + classFile)
			.withCommand("java", "-cp", "/fixture", PinningFixture.class.getName(), "synchronized",
					String.valueOf(THREADS), String.valueOf(BLOCK_MILLIS))
			.waitingFor(Wait.forLogMessage(".*fixture ready.*\\n", 1))) {
			PinningProbe probe = withProbe ? PinningProbe.on(fixture).withThreshold(Duration.ZERO) : null;
			long t0 = System.nanoTime();
			fixture.start();
			long ready = System.nanoTime();
			long attach = 0;
			if (probe != null) {
				probe.start();
				attach = System.nanoTime() - ready;
			}
			long firstBatch = lastBatch(fixture);
			long from = System.nanoTime();
			Thread.sleep(run);
			long batches = lastBatch(fixture) - firstBatch;
			double seconds = (System.nanoTime() - from) / 1e9;
			Figures figures = new Figures();
			figures.readyMillis = (ready - t0) / 1_000_000;
			figures.attachMillis = attach / 1_000_000;
			figures.pinsPerSecond = batches * THREADS / seconds;
			if (probe != null) {
				long readStart = System.nanoTime();
				PinningReport report = probe.read();
				figures.readMillis = (System.nanoTime() - readStart) / 1_000_000;
				figures.eventsPerSecond = report.count() / ((System.nanoTime() - ready - attach) / 1e9);
				probe.close();
			}
			return figures;
		}
	}

	private static long lastBatch(GenericContainer<?> fixture) {
		Matcher batches = BATCH.matcher(fixture.getLogs());
		long last = 0;
		while (batches.find()) {
			last = Long.parseLong(batches.group(1));
		}
		return last;
	}

	private static final class Figures {

		long readyMillis;

		long attachMillis;

		long readMillis;

		double pinsPerSecond;

		double eventsPerSecond;

	}

}
