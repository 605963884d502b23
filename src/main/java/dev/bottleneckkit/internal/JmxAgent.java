package dev.bottleneckkit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import org.awaitility.Awaitility;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * The JMX agent of the JVM in a container, which the probes that read a JVM from outside share
 * ({@code PinningProbe}, {@code ThreadDumpProbe}). Enabling it adds to the container's
 * {@code JAVA_TOOL_OPTIONS} (which every HotSpot JVM reads): {@code -Dcom.sun.management.jmxremote.port=P
 * -Dcom.sun.management.jmxremote.rmi.port=P -Dcom.sun.management.jmxremote.authenticate=false
 * -Dcom.sun.management.jmxremote.ssl=false -Dcom.sun.management.jmxremote.local.only=false
 * -Djava.rmi.server.hostname=<docker host>}, and publishes port P on the same host port: RMI hands out the
 * port it listens on, so the two must match. With a local Docker engine the port is published on 127.0.0.1
 * only, so no other machine can reach the agent. The JVM needs the module {@code java.management.rmi}, in every
 * Temurin JRE.
 */
public final class JmxAgent {

	private static final Map<GenericContainer<?>, JmxAgent> enabled = Collections.synchronizedMap(new IdentityHashMap<>());

	private final String name;

	private final String host;

	private final int port;

	private JmxAgent(String name, String host, int port) {
		this.name = name;
		this.host = host;
		this.port = port;
	}

	/** Enables the agent of {@code container}'s JVM, once however many probes ask; call before it starts. */
	public static JmxAgent on(GenericContainer<?> container) {
		return enabled.computeIfAbsent(container, JmxAgent::enable);
	}

	private static JmxAgent enable(GenericContainer<?> container) {
		int port = freePort();
		String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
		// With a local engine the agent is published on loopback only: nothing off this machine can reach it.
		// A remote engine publishes on its own interfaces, where the test connects to it.
		boolean local = isLoopback(dockerHost);
		String host = local ? "127.0.0.1" : dockerHost;
		String flags = String.join(" ", "-Dcom.sun.management.jmxremote.port=" + port,
				"-Dcom.sun.management.jmxremote.rmi.port=" + port, "-Dcom.sun.management.jmxremote.authenticate=false",
				"-Dcom.sun.management.jmxremote.ssl=false", "-Dcom.sun.management.jmxremote.local.only=false",
				"-Djava.rmi.server.hostname=" + host);
		String existing = container.getEnvMap().get("JAVA_TOOL_OPTIONS");
		container.withEnv("JAVA_TOOL_OPTIONS", (existing == null) ? flags : existing + " " + flags);
		container.withCreateContainerCmdModifier((cmd) -> {
			ExposedPort jmx = ExposedPort.tcp(port);
			List<ExposedPort> exposed = new ArrayList<>(Arrays.asList(cmd.getExposedPorts()));
			exposed.add(jmx);
			cmd.withExposedPorts(exposed);
			Ports bindings = (cmd.getHostConfig().getPortBindings() != null) ? cmd.getHostConfig().getPortBindings()
					: new Ports();
			bindings.bind(jmx, local ? Ports.Binding.bindIpAndPort("127.0.0.1", port) : Ports.Binding.bindPort(port));
			cmd.getHostConfig().withPortBindings(bindings);
		});
		String name = container.getNetworkAliases().isEmpty() ? "container" : container.getNetworkAliases().get(0);
		return new JmxAgent(name, host, port);
	}

	/** The container's first network alias: how reports and file names refer to it. */
	public String name() {
		return this.name;
	}

	/** Connects, waiting up to 30 s for the JVM to open its agent. */
	public JMXConnector connect() {
		return Awaitility.await("JMX agent of " + this.name + " at " + this)
			.atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> JMXConnectorFactory
				.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + this.host + ":" + this.port + "/jmxrmi")),
					(c) -> c != null);
	}

	@Override
	public String toString() {
		return this.host + ":" + this.port;
	}

	private static boolean isLoopback(String host) {
		try {
			return InetAddress.getByName(host).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
