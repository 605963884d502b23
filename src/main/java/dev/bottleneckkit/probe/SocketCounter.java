package dev.bottleneckkit.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What runs in the socket reader's container, in the service's network namespace: every
 * {@code interval} milliseconds, one line of the established outbound connections by
 * remote address, {@code @@bottleneck-kit 172.18.0.5:8080=16 172.18.0.3:3306=10}. One
 * small JVM reading two files, so the reader costs the machine next to nothing (a shell
 * loop forking {@code cat} took a tenth of a core, and the engine as much again to stream
 * its output).
 */
final class SocketCounter {

	static final String MARK = "@@bottleneck-kit";

	private SocketCounter() {
	}

	public static void main(String[] args) throws InterruptedException {
		long interval = Long.parseLong(args[0]);
		while (true) {
			List<String> lines = new ArrayList<>();
			for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
				try {
					lines.addAll(Files.readAllLines(Path.of(table)));
				}
				catch (IOException ex) {
					// no IPv6 in this namespace
				}
			}
			Map<String, Integer> outbound = OutboundConnections.count(lines);
			System.out.println(MARK + " "
					+ outbound.entrySet()
						.stream()
						.map((entry) -> entry.getKey() + "=" + entry.getValue())
						.collect(Collectors.joining(" ")));
			System.out.flush();
			Thread.sleep(interval);
		}
	}

}
