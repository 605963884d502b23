package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

	/**
	 * A reading of each outbound connection's bytes, where the reader runs on Java 22 or
	 * later ({@code TcpDiag}):
	 * {@code @@bottleneck-kit-tcp 172.18.0.5:8080/43210=1234,5678}, the destination, the
	 * local port, the bytes acknowledged and received.
	 */
	static final String TCP_MARK = "@@bottleneck-kit-tcp";

	private static final String ESTABLISHED = "01";

	private static final String LISTEN = "0A";

	private SocketCounter() {
	}

	public static void main(String[] args) throws InterruptedException {
		long interval = Long.parseLong(args[0]);
		Object diag = diag();
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
			Map<String, Integer> outbound = count(lines);
			System.out.println(MARK + " "
					+ outbound.entrySet()
						.stream()
						.map((entry) -> entry.getKey() + "=" + entry.getValue())
						.collect(Collectors.joining(" ")));
			if (diag != null) {
				System.out.println(TCP_MARK + " " + bytes(diag, listening(lines)));
			}
			System.out.flush();
			Thread.sleep(interval);
		}
	}

	/**
	 * The kernel's counters of each connection, where this JVM can ask for them: the
	 * class compiled for Java 22, loaded by name, on a runtime that runs it; else none.
	 */
	static Object diag() {
		try {
			Constructor<?> diag = Class.forName(SocketCounter.class.getPackageName() + ".TcpDiag")
				.getDeclaredConstructor();
			diag.setAccessible(true);
			return diag.newInstance();
		}
		catch (Throwable ex) {
			return null;
		}
	}

	/** {@code 172.18.0.5:8080/43210=1234,5678 …}: outbound connections only. */
	@SuppressWarnings("unchecked")
	static String bytes(Object diag, Set<Integer> listening) {
		try {
			Method read = diag.getClass().getDeclaredMethod("read");
			read.setAccessible(true);
			Map<String, long[]> connections = (Map<String, long[]>) read.invoke(diag);
			StringBuilder line = new StringBuilder();
			connections.forEach((key, counts) -> {
				int space = key.lastIndexOf(' ');
				int local = Integer.parseInt(key.substring(space + 1));
				if (!listening.contains(local)) {
					line.append(key, 0, space)
						.append('/')
						.append(local)
						.append('=')
						.append(counts[0])
						.append(',')
						.append(counts[1])
						.append(' ');
				}
			});
			return line.toString().trim();
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return "";
		}
	}

	/**
	 * The local ports the service listens on, from the lines of {@code /proc/net/tcp}.
	 */
	static Set<Integer> listening(List<String> lines) {
		Set<Integer> listening = new HashSet<>();
		for (String line : lines) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length >= 4 && fields[0].endsWith(":") && LISTEN.equals(fields[3])) {
				listening.add(port(fields[1]));
			}
		}
		return listening;
	}

	/**
	 * Established outbound connections by remote {@code ip:port}, from the lines of
	 * {@code /proc/net/tcp} and {@code tcp6}: outbound when the local port is none the
	 * service listens on.
	 */
	static Map<String, Integer> count(List<String> lines) {
		Set<Integer> listening = new HashSet<>();
		List<String[]> established = new ArrayList<>();
		for (String line : lines) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length < 4 || !fields[0].endsWith(":")) {
				continue;
			}
			if (LISTEN.equals(fields[3])) {
				listening.add(port(fields[1]));
			}
			else if (ESTABLISHED.equals(fields[3])) {
				established.add(fields);
			}
		}
		Map<String, Integer> outbound = new TreeMap<>();
		for (String[] fields : established) {
			if (!listening.contains(port(fields[1]))) {
				outbound.merge(address(fields[2]), 1, Integer::sum);
			}
		}
		return outbound;
	}

	/** {@code 0100007F:1F90} → 8080. */
	static int port(String hexAddress) {
		return Integer.parseInt(hexAddress.substring(hexAddress.indexOf(':') + 1), 16);
	}

	/**
	 * {@code 0100007F:1F90} → {@code 127.0.0.1:8080}; an IPv6 address (32 hex digits,
	 * four little-endian words) → its IPv4 form when it maps one, else
	 * {@code [hex]:port}.
	 */
	static String address(String hexAddress) {
		String hex = hexAddress.substring(0, hexAddress.indexOf(':'));
		int port = port(hexAddress);
		if (hex.length() == 8) {
			return ipv4(hex) + ":" + port;
		}
		if (hex.length() == 32 && hex.startsWith("0000000000000000FFFF0000")) {
			return ipv4(hex.substring(24)) + ":" + port;
		}
		return "[" + hex.toLowerCase(Locale.ROOT) + "]:" + port;
	}

	/** A little-endian 32-bit word as a dotted quad: {@code 0100007F} → 127.0.0.1. */
	private static String ipv4(String hex) {
		long word = Long.parseLong(hex, 16);
		return (word & 0xFF) + "." + ((word >> 8) & 0xFF) + "." + ((word >> 16) & 0xFF) + "." + ((word >> 24) & 0xFF);
	}

}
