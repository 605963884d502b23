package dev.bottleneckkit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import org.awaitility.Awaitility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;

/**
 * The JMX agent of the JVM in a container, which the probes that read a JVM from outside
 * share ({@code PinningProbe}, {@code ThreadDumpProbe}). Enabling it adds to the
 * container's {@code JAVA_TOOL_OPTIONS} (which every HotSpot JVM reads):
 * {@code -Dcom.sun.management.jmxremote.port=P
 * -Dcom.sun.management.jmxremote.rmi.port=P -Dcom.sun.management.jmxremote.authenticate=true (a password file
 * with a random password per container, readable by the service's user only)
 * -Dcom.sun.management.jmxremote.ssl=false -Dcom.sun.management.jmxremote.local.only=false
 * -Djava.rmi.server.hostname=<docker host>}, and publishes port P on the same host port:
 * RMI hands out the port it listens on, so the two must match. With a local Docker engine
 * the port is published on 127.0.0.1 only, so no other machine can reach the agent. The
 * JVM needs the module {@code java.management.rmi}, in every Temurin JRE.
 *
 * <p>
 * A container that knows which user its image runs as ({@link #ownedFilesOf}) gets the
 * password file owned by that user; any other gets it owned by root, enough for a JVM
 * that runs as root.
 */
public final class JmxAgent {

	private static final Logger log = LoggerFactory.getLogger(JmxAgent.class);

	private static final Map<GenericContainer<?>, JmxAgent> enabled = Collections
		.synchronizedMap(new IdentityHashMap<>());

	/**
	 * How each container that told ({@link #ownedFilesOf}) copies in its user's files.
	 */
	private static final Map<GenericContainer<?>, OwnedFiles> owners = Collections
		.synchronizedMap(new IdentityHashMap<>());

	/** The one JMX user; its password is new for every container. */
	public static final String USER = "bottleneck-kit";

	/**
	 * Where the agent's password file goes in the container: readable by the service's
	 * user only.
	 */
	static final String PASSWORD_FILE = "/tmp/bottleneck-kit-jmx.password";

	/**
	 * Where the agent's access file goes: {@value #USER} may read and write (JFR
	 * recordings need both).
	 */
	static final String ACCESS_FILE = "/tmp/bottleneck-kit-jmx.access";

	private final String name;

	private final String host;

	private final int port;

	/**
	 * Never logged, never in a flag: it lives in this object and in the container's
	 * password file.
	 */
	private final String password;

	private JmxAgent(String name, String host, int port, String password) {
		this.name = name;
		this.host = host;
		this.port = port;
		this.password = password;
	}

	/**
	 * The agent of {@code container}'s JVM, enabled once however many probes ask: before
	 * the container starts, or by the container itself (a {@code ServiceContainer} does
	 * unless told not to). A started container without it cannot get it.
	 */
	public static JmxAgent on(GenericContainer<?> container) {
		JmxAgent known = enabled.get(container);
		if (known != null) {
			return known;
		}
		if (container.getContainerId() != null) {
			throw new IllegalStateException("the JVM in " + nameOf(container)
					+ " started without its JMX agent, which thread dumps, pinning and memory probes need: create the"
					+ " probe before the container starts, or leave JMX on (a ServiceContainer enables it unless"
					+ " withoutJmx() was called)");
		}
		return enabled.computeIfAbsent(container, JmxAgent::enable);
	}

	/**
	 * An agent that already listens at {@code host}:{@code port} for {@value #USER} with
	 * {@code password}: a JVM reached over its agent alone, as a remote engine's
	 * containers are.
	 */
	public static JmxAgent at(String name, String host, int port, String password) {
		return new JmxAgent(name, host, port, password);
	}

	/** The agent of {@code container}, when it was enabled. */
	public static java.util.Optional<JmxAgent> of(GenericContainer<?> container) {
		return java.util.Optional.ofNullable(enabled.get(container));
	}

	/**
	 * Tells the agent that {@code container} copies files in owned by the user its image
	 * runs as, and names itself, through {@code files}: its agent's password file then
	 * belongs to the JVM's user, whoever enables the agent.
	 */
	public static void ownedFilesOf(GenericContainer<?> container, OwnedFiles files) {
		owners.put(container, files);
	}

	/** Files a container copies in owned by the user its image runs as. */
	public interface OwnedFiles {

		/** Copies {@code file} to {@code path}, owned by the image's user. */
		void copyOwnedByServiceUser(Transferable file, String path);

		/** The container's name in messages and file names. */
		String name();

	}

	private static JmxAgent enable(GenericContainer<?> container) {
		int port = freePort();
		String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
		// With a local engine the agent is published on loopback only: nothing off this
		// machine can reach it.
		// A remote engine publishes on its own interfaces, where the test connects to it.
		boolean local = DockerHost.engineIsLocal();
		String host = local ? DockerHost.LOOPBACK : dockerHost;
		String password = Passwords.random();
		String flags = String.join(" ", "-Dcom.sun.management.jmxremote.port=" + port,
				"-Dcom.sun.management.jmxremote.rmi.port=" + port, "-Dcom.sun.management.jmxremote.authenticate=true",
				"-Dcom.sun.management.jmxremote.password.file=" + PASSWORD_FILE,
				"-Dcom.sun.management.jmxremote.access.file=" + ACCESS_FILE, "-Dcom.sun.management.jmxremote.ssl=false",
				"-Dcom.sun.management.jmxremote.local.only=false", "-Djava.rmi.server.hostname=" + host);
		JvmOptions.append(container, flags);
		// The JVM refuses a password file that others may read, so it must belong to the
		// user the JVM runs as.
		Transferable passwordFile = Transferable.of((USER + " " + password + "\n").getBytes(StandardCharsets.UTF_8),
				0600);
		Transferable accessFile = Transferable.of((USER + " readwrite\n").getBytes(StandardCharsets.UTF_8), 0644);
		OwnedFiles owned = owners.get(container);
		if (owned != null) {
			owned.copyOwnedByServiceUser(passwordFile, PASSWORD_FILE);
			owned.copyOwnedByServiceUser(accessFile, ACCESS_FILE);
		}
		else {
			// Owned by root: enough for a JVM that runs as root, as the Temurin images'
			// do.
			container.withCopyToContainer(passwordFile, PASSWORD_FILE).withCopyToContainer(accessFile, ACCESS_FILE);
		}
		container.withCreateContainerCmdModifier((cmd) -> {
			ExposedPort jmx = ExposedPort.tcp(port);
			List<ExposedPort> exposed = new ArrayList<>(Arrays.asList(cmd.getExposedPorts()));
			exposed.add(jmx);
			cmd.withExposedPorts(exposed);
			Ports bindings = (cmd.getHostConfig().getPortBindings() != null) ? cmd.getHostConfig().getPortBindings()
					: new Ports();
			bindings.bind(jmx,
					local ? Ports.Binding.bindIpAndPort(DockerHost.LOOPBACK, port) : Ports.Binding.bindPort(port));
			cmd.getHostConfig().withPortBindings(bindings);
		});
		return new JmxAgent(nameOf(container), host, port, password);
	}

	private static String nameOf(GenericContainer<?> container) {
		OwnedFiles owned = owners.get(container);
		return (owned != null) ? owned.name()
				: container.getNetworkAliases().isEmpty() ? "container" : container.getNetworkAliases().get(0);
	}

	/** The agent's address, {@code service:jmx:rmi:///jndi/rmi://host:port/jmxrmi}. */
	public JMXServiceURL serviceUrl() {
		try {
			return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + this.host + ":" + this.port + "/jmxrmi");
		}
		catch (MalformedURLException ex) {
			throw new IllegalStateException(ex);
		}
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
			.until(() -> JMXConnectorFactory.connect(serviceUrl(),
					Map.of(JMXConnector.CREDENTIALS, new String[] { USER, this.password })), (c) -> c != null);
	}

	@Override
	public String toString() {
		return this.host + ":" + this.port;
	}

	/**
	 * A port free on this machine and outside the kernel's ephemeral range. Docker hands
	 * out the host ports it publishes from that same range, lowest first, so a port the
	 * kernel gave to {@code new ServerSocket(0)} could be given to another container
	 * before this one binds it ("Bind for 127.0.0.1:32769 failed: port is already
	 * allocated", seen in CI). Below the range only a process that asks for that very
	 * port can take it.
	 */
	static int freePort() {
		int below = ephemeralRangeStart(Path.of(EPHEMERAL_RANGE));
		for (int attempt = 0; below - LOWEST_PORT > 1_000 && attempt < 100; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, below);
			if (handedOut.add(port) && isFree(port)) {
				return port;
			}
		}
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Where Linux keeps its ephemeral port range, "low high". */
	static final String EPHEMERAL_RANGE = "/proc/sys/net/ipv4/ip_local_port_range";

	/** The lowest port the kit picks: above the well-known and most registered ones. */
	static final int LOWEST_PORT = 20_000;

	/** Ports handed out by this JVM, never handed out twice. */
	private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

	/**
	 * The first port of the kernel's ephemeral range, read from {@code file}; 32768 (the
	 * Linux default) where there is no such file.
	 */
	static int ephemeralRangeStart(Path file) {
		try {
			// Not readString: on JDK 25 it read this sysctl file (size 0) as "3".
			return Integer.parseInt(Files.readAllLines(file).get(0).trim().split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return 32_768;
		}
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Closes {@code connector} (null: nothing to close); a connection already gone is
	 * only logged.
	 */
	public static void disconnect(JMXConnector connector, String name) {
		if (connector == null) {
			return;
		}
		try {
			connector.close();
		}
		catch (IOException ex) {
			log.debug("JMX connection to {} already gone: {}", name, ex.toString());
		}
	}

}
