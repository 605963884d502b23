package dev.bottleneckkit.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
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
