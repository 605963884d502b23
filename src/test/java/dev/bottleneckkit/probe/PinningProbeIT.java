package dev.bottleneckkit.probe;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.probe.fixture.PinningFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The pinning probe on a JVM it did not start: a plain Java image running
 * {@link PinningFixture}, with nothing added but the probe's {@code JAVA_TOOL_OPTIONS}.
 */
@Scenario(id = "K2", title = "Pinning probe: JFR pinned events from a JVM in a container")
class PinningProbeIT {

	/**
	 * Batches the fixture completes while the probe records: 4 blocking virtual threads
	 * each.
	 */
	static final int BATCHES = 5;

	private static final Pattern BATCH = Pattern.compile("batch (\\d+) done");

	@ParameterizedTest(name = "Java {0}, {1}: pinned = {2}")
	@CsvSource({ "JAVA_21, synchronized, true", "JAVA_21, reentrant-lock, false", "JAVA_25, synchronized, false" })
	void seesPinningInsideAContainerJvm(JavaRuntime java, String locking, boolean pins) {
		try (GenericContainer<?> fixture = fixture(java, locking); PinningProbe probe = PinningProbe.on(fixture)) {
			fixture.start();
			probe.start();
			long first = lastBatch(fixture) + 1;

			await("fixture runs " + BATCHES + " batches while recorded").atMost(Duration.ofSeconds(30))
				.until(() -> lastBatch(fixture) >= first + BATCHES);

			PinningReport report = probe.read();
			if (pins) {
				assertThat(report).as("synchronized around a blocking call pins on %s", java)
					.hasPinnedAtLeast(BATCHES * 4)
					.hasEveryPinInCode(PinningFixture.class.getName() + ".blockInSynchronized");
			}
			else {
				assertThat(report).as("%s with %s unmounts while blocked", java, locking).hasNoPinnedThreads();
			}
		}
	}

	@Test
	void jmxAgentIsOnLoopbackOnlyAndRefusesAnyoneWithoutItsPassword() throws SocketException {
		try (GenericContainer<?> fixture = fixture(JavaRuntime.JAVA_21, "synchronized");
				PinningProbe probe = PinningProbe.on(fixture)) {
			fixture.start();
			probe.start();

			Map<ExposedPort, Ports.Binding[]> published = fixture.getContainerInfo()
				.getHostConfig()
				.getPortBindings()
				.getBindings();
			JMXServiceURL agent = JmxAgent.on(fixture).serviceUrl();

			assertThat(published).as("the JMX agent's port is the only one published").hasSize(1);
			assertThat(published.values().iterator().next()).extracting(Ports.Binding::getHostIp)
				.as("published on 127.0.0.1: no other machine reaches the JMX agent")
				.containsExactly("127.0.0.1");
			int port = Integer.parseInt(published.values().iterator().next()[0].getHostPortSpec());
			InetAddress outside = nonLoopbackAddress();
			assertThatThrownBy(() -> {
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress(outside, port), 2_000);
				}
			}).as("a connection to this host's %s:%d, where other machines would come from, is refused",
					outside.getHostAddress(), port)
				.isInstanceOf(ConnectException.class);
			assertThatThrownBy(() -> JMXConnectorFactory.connect(agent).close())
				.as("a client without credentials is refused")
				.isInstanceOf(SecurityException.class);
			assertThatThrownBy(() -> JMXConnectorFactory
				.connect(agent, Map.of(JMXConnector.CREDENTIALS, new String[] { "bottleneck-kit", "guessed" }))
				.close()).as("a client with a guessed password is refused").isInstanceOf(SecurityException.class);
			// A batch that ends while recorded, then the probe's own read: the fixture
			// pins only in batches, and one read right after start can come before any
			// has ended.
			long first = lastBatch(fixture) + 1;
			await("fixture runs a batch while recorded").atMost(Duration.ofSeconds(30))
				.until(() -> lastBatch(fixture) >= first + 1);
			assertThat(probe.read().count()).as("the probe itself, with the container's random password, gets in")
				.isPositive();
		}
	}

	/**
	 * This host's first IPv4 address that is not loopback (its network interface), as
	 * other machines see it.
	 */
	private static InetAddress nonLoopbackAddress() throws SocketException {
		return NetworkInterface.networkInterfaces().filter((nic) -> {
			try {
				return nic.isUp() && !nic.isLoopback();
			}
			catch (SocketException ex) {
				return false;
			}
		})
			// the machine's own network first: Docker's bridges are not where other
			// machines come from
			.sorted(Comparator.comparing((NetworkInterface nic) -> nic.getName().startsWith("docker")
					|| nic.getName().startsWith("br-") || nic.getName().startsWith("veth")))
			.flatMap(NetworkInterface::inetAddresses)
			.filter((address) -> address instanceof Inet4Address && !address.isLoopbackAddress())
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(
					"this host has no non-loopback IPv4 address to try the JMX port on"));
	}

	private static GenericContainer<?> fixture(JavaRuntime java, String locking) {
		String classFile = PinningFixture.class.getName().replace('.', '/') + ".class";
		return KitContainers.guarded(new GenericContainer<>(KitImages.java(java)))
			.withCopyFileToContainer(MountableFile.forClasspathResource(classFile), "/fixture/" + classFile)
			.withCommand("java", "-cp", "/fixture", PinningFixture.class.getName(), locking)
			.withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("pinning-fixture-" + java + "-" + locking)))
			.waitingFor(Wait.forLogMessage(".*fixture ready.*\\n", 1).withStartupTimeout(KitImages.STARTUP_TIMEOUT));
	}

	private static long lastBatch(GenericContainer<?> fixture) {
		Matcher batches = BATCH.matcher(fixture.getLogs());
		long last = 0;
		while (batches.find()) {
			last = Long.parseLong(batches.group(1));
		}
		return last;
	}

}
