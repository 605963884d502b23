package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What runs in the engine host's CPU reader, a container on a remote engine with that
 * host's cgroups mounted read-only: every {@code interval} milliseconds, one line of the
 * host's busy time and each container's CPU time so far, in nanoseconds,
 * {@code @@bottleneck-cpu machine=81234000000 3f2a…=1203000000 …}. The same counters a
 * local engine's host shows the test ({@code /proc/stat} and each container's cgroup),
 * read where the containers run. It needs nothing but the JDK, so that it runs from the
 * kit's classes in a stock Java image.
 */
final class HostCpuCounter {

	static final String MARK = "@@bottleneck-cpu";

	/** Ticks per second of {@code /proc/stat} (USER_HZ, 100 on Linux). */
	private static final double TICKS_PER_SECOND = 100.0;

	/** A container's cgroup directory: its id, or {@code docker-<id>.scope}. */
	private static final Pattern CONTAINER = Pattern.compile("(?:docker-)?([0-9a-f]{64})(?:\\.scope)?");

	/**
	 * Where an engine keeps its containers' cgroups below the cgroup root: v1
	 * ({@code cpuacct}, alone or joined with {@code cpu}) or v2, under the cgroupfs or
	 * the systemd driver.
	 */
	private static final List<String> PARENTS = List.of("cpuacct/docker", "cpu,cpuacct/docker", "cpuacct/system.slice",
			"cpu,cpuacct/system.slice", "docker", "system.slice");

	private HostCpuCounter() {
	}

	/** {@code interval-millis cgroup-root}. */
	public static void main(String[] args) throws InterruptedException {
		long interval = Long.parseLong(args[0]);
		Path root = Path.of(args[1]);
		while (true) {
			StringBuilder line = new StringBuilder(MARK);
			try {
				busyNanos(Files.readAllLines(Path.of("/proc/stat")).get(0))
					.ifPresent((nanos) -> line.append(" machine=").append(nanos));
			}
			catch (IOException | RuntimeException ex) {
				// no machine total this time
			}
			containers(root).forEach((id, nanos) -> line.append(' ').append(id).append('=').append(nanos));
			System.out.println(line);
			System.out.flush();
			Thread.sleep(interval);
		}
	}

	/** Each container's CPU time so far under {@code root}, by its full id. */
	static Map<String, Long> containers(Path root) {
		Map<String, Long> used = new TreeMap<>();
		for (String parent : PARENTS) {
			Path directory = root.resolve(parent);
			if (!Files.isDirectory(directory)) {
				continue;
			}
			try (DirectoryStream<Path> groups = Files.newDirectoryStream(directory)) {
				for (Path group : groups) {
					Matcher id = CONTAINER.matcher(group.getFileName().toString());
					if (id.matches()) {
						cpuNanos(group).ifPresent((nanos) -> used.putIfAbsent(id.group(1), nanos));
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				// a group removed while listed
			}
		}
		return used;
	}

	/**
	 * v1 {@code cpuacct.usage} (nanoseconds) or v2 {@code usage_usec} of
	 * {@code cpu.stat}.
	 */
	static OptionalLong cpuNanos(Path group) {
		try {
			Path v1 = group.resolve("cpuacct.usage");
			if (Files.isReadable(v1)) {
				return OptionalLong.of(Long.parseLong(Files.readString(v1).trim()));
			}
			for (String line : Files.readAllLines(group.resolve("cpu.stat"))) {
				if (line.startsWith("usage_usec ")) {
					return OptionalLong.of(Long.parseLong(line.substring("usage_usec ".length()).trim()) * 1000);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// a container that just stopped
		}
		return OptionalLong.empty();
	}

	/**
	 * {@code cpu  user nice system idle iowait irq softirq steal …} → everything but idle
	 * and iowait, in nanoseconds.
	 */
	static OptionalLong busyNanos(String line) {
		String[] fields = line.trim().split("\\s+");
		if (fields.length < 5 || !fields[0].equals("cpu")) {
			return OptionalLong.empty();
		}
		long busy = 0;
		for (int i = 1; i < Math.min(fields.length, 9); i++) {
			if (i != 4 && i != 5) {
				busy += Long.parseLong(fields[i]);
			}
		}
		return OptionalLong.of(Math.round(busy / TICKS_PER_SECOND * 1e9));
	}

	/**
	 * A line of the reader: the machine's busy nanoseconds (absent when unread) and each
	 * container's; empty when the line is not the reader's.
	 */
	static java.util.Optional<Line> parse(String text) {
		if (!text.startsWith(MARK)) {
			return java.util.Optional.empty();
		}
		OptionalLong machine = OptionalLong.empty();
		Map<String, Long> containers = new TreeMap<>();
		for (String pair : text.substring(MARK.length()).trim().split(" ")) {
			int equals = pair.indexOf('=');
			if (equals <= 0) {
				continue;
			}
			long nanos = Long.parseLong(pair.substring(equals + 1));
			if (pair.startsWith("machine=")) {
				machine = OptionalLong.of(nanos);
			}
			else {
				containers.put(pair.substring(0, equals), nanos);
			}
		}
		return java.util.Optional.of(new Line(machine, containers));
	}

	/** One line: the machine's busy nanoseconds so far and each container's CPU. */
	record Line(OptionalLong machineBusyNanos, Map<String, Long> containers) {

	}

}
