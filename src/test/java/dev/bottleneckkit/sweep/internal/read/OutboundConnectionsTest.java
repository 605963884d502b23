package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import dev.bottleneckkit.sweep.Step;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.output.OutputFrame;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connections probe's remote path on a remote engine's answers, recorded from
 * Debian's Docker 20.10 in a container of its own ({@code .ci/remote-engine.sh}): a
 * caller holding three connections to a Toxiproxy's port 8474, the socket reader's lines
 * from the caller's network namespace, the engine's list of its containers and its
 * inspection of the proxy. Nothing of the engine's host is read on this one: the readings
 * come through the engine, and so do the names.
 */
class OutboundConnectionsTest {

	private static final JsonMapper JSON = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	@Test
	void countsEachDestinationFromTheReadersLinesAndNamesItFromTheEnginesAnswers() throws IOException {
		List<Container> listed = read("/engine/containers-dind-20.10.json", new TypeReference<List<Container>>() {
		});
		InspectContainerResponse proxy = read("/engine/inspect-toxiproxy-dind-20.10.json",
				new TypeReference<InspectContainerResponse>() {
				});
		Map<String, String> addresses = OutboundConnections.addresses(listed, (container) -> MachineCpu
			.nameOf(container.getId().equals(proxy.getId()) ? proxy : null, container.getImage()));
		OutboundConnections connections = new OutboundConnections(null, () -> addresses);
		long from = System.nanoTime();

		for (String line : text("/engine/socket-reader-dind-20.10.txt").split("\n")) {
			connections
				.onLine(new OutputFrame(OutputFrame.OutputType.STDOUT, (line + "\n").getBytes(StandardCharsets.UTF_8)));
		}

		List<Step.Destination> seen = connections.between(from, System.nanoTime());
		assertThat(seen).as("one destination, named by the proxy's network alias on the engine")
			.singleElement()
			.satisfies((destination) -> {
				assertThat(destination.name()).isEqualTo("toxiproxy:8474");
				assertThat(destination.min()).as("fewest over the readings").isEqualTo(3);
				assertThat(destination.max()).as("most over the readings").isEqualTo(3);
			});
		assertThat(addresses).as("every container of the engine by its address, the reader's own name label too")
			.containsValue("toxiproxy")
			.containsValue("debian");
	}

	/**
	 * A destination held by 13 established connections, 8 of them another client's idle
	 * keep-alive connections: only the 5 whose bytes moved between the first and the last
	 * reading carried a request, and only they count.
	 */
	@Test
	void onlyTheConnectionsWhoseBytesMovedAreInUse() {
		OutboundConnections connections = new OutboundConnections(null, Map::of);
		long from = System.nanoTime();
		for (int reading = 0; reading < 3; reading++) {
			StringBuilder bytes = new StringBuilder(SocketCounter.TCP_MARK);
			for (int port = 40000; port < 40013; port++) {
				long moved = (port < 40005) ? 300L * reading : 0;
				bytes.append(' ')
					.append("172.18.0.5:8666/")
					.append(port)
					.append('=')
					.append(1200 + moved)
					.append(',')
					.append(5400 + 2 * moved);
			}
			line(connections, SocketCounter.MARK + " 172.18.0.5:8666=13");
			line(connections, bytes.toString());
		}

		List<Step.Destination> seen = connections.between(from, System.nanoTime());

		assertThat(seen).singleElement().satisfies((destination) -> {
			assertThat(destination.max()).as("established").isEqualTo(13);
			assertThat(destination.inUse()).as("carrying requests").hasValue(5);
			assertThat(destination.counted()).isEqualTo(5);
			assertThat(destination).hasToString("172.18.0.5:8666 13 (5 in use)");
		});
	}

	/**
	 * The kernel's counters, asked as the socket reader asks them on Java 22 or later: on
	 * this JVM's own loopback, three connections to a listening socket, one of which
	 * sends bytes between two readings; the listening port's own side is left out.
	 */
	@Test
	void theKernelsCountersMoveOnlyForTheConnectionThatCarriedBytes() throws Exception {
		Object diag = SocketCounter.diag();
		org.junit.jupiter.api.Assumptions.assumeTrue(diag != null, "the foreign function API needs Java 22");
		try (java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
				java.net.Socket busy = new java.net.Socket(server.getInetAddress(), server.getLocalPort());
				java.net.Socket idle = new java.net.Socket(server.getInetAddress(), server.getLocalPort());
				java.net.Socket alsoIdle = new java.net.Socket(server.getInetAddress(), server.getLocalPort())) {
			String destination = "127.0.0.1:" + server.getLocalPort() + "/";
			Map<String, String> before = counters(SocketCounter.bytes(diag, java.util.Set.of(server.getLocalPort())),
					destination);
			busy.getOutputStream().write(new byte[4096]);
			busy.getOutputStream().flush();
			Thread.sleep(100);
			Map<String, String> after = counters(SocketCounter.bytes(diag, java.util.Set.of(server.getLocalPort())),
					destination);

			assertThat(before).as("the three clients' connections, by local port").hasSize(3);
			assertThat(after.get(Integer.toString(busy.getLocalPort())))
				.isNotEqualTo(before.get(Integer.toString(busy.getLocalPort())));
			assertThat(after.get(Integer.toString(idle.getLocalPort())))
				.isEqualTo(before.get(Integer.toString(idle.getLocalPort())));
			assertThat(after.get(Integer.toString(alsoIdle.getLocalPort())))
				.isEqualTo(before.get(Integer.toString(alsoIdle.getLocalPort())));
		}
	}

	/**
	 * The line's connections to {@code destination}, by local port: their two counters.
	 */
	private static Map<String, String> counters(String line, String destination) {
		Map<String, String> counters = new java.util.TreeMap<>();
		for (String pair : line.split(" ")) {
			if (pair.startsWith(destination)) {
				counters.put(pair.substring(destination.length(), pair.indexOf('=')),
						pair.substring(pair.indexOf('=') + 1));
			}
		}
		return counters;
	}

	private static void line(OutboundConnections connections, String line) {
		connections
			.onLine(new OutputFrame(OutputFrame.OutputType.STDOUT, (line + "\n").getBytes(StandardCharsets.UTF_8)));
	}

	private static <T> T read(String resource, TypeReference<T> type) throws IOException {
		try (InputStream json = OutboundConnectionsTest.class.getResourceAsStream(resource)) {
			return JSON.readValue(json, type);
		}
	}

	private static String text(String resource) throws IOException {
		try (InputStream in = OutboundConnectionsTest.class.getResourceAsStream(resource)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
