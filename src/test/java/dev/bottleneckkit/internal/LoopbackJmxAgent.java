package dev.bottleneckkit.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.Arrays;
import java.util.Map;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.security.auth.Subject;

/**
 * This JVM's platform MBeans behind a JMX agent of the kind a service's JVM opens: RMI on
 * 127.0.0.1, a password for {@value JmxAgent#USER}. A probe given its {@link #agent()}
 * reads this JVM as it reads a remote engine's container, over the agent alone, with
 * nothing of the JVM's process on this host.
 */
public final class LoopbackJmxAgent implements AutoCloseable {

	private final Registry registry;

	private final JMXConnectorServer server;

	private final JmxAgent agent;

	private LoopbackJmxAgent(Registry registry, JMXConnectorServer server, JmxAgent agent) {
		this.registry = registry;
		this.server = server;
		this.agent = agent;
	}

	/** An agent named {@code name} on a free port of 127.0.0.1. */
	public static LoopbackJmxAgent start(String name) throws IOException {
		// The stubs the registry hands out name this address: the sockets listen on no
		// other.
		System.setProperty("java.rmi.server.hostname", DockerHost.LOOPBACK);
		RMIServerSocketFactory loopback = (port) -> new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
		int registryPort = JmxAgent.freePort();
		int serverPort = JmxAgent.freePort();
		String password = Passwords.random();
		Registry registry = LocateRegistry.createRegistry(registryPort, null, loopback);
		JMXAuthenticator authenticator = (credentials) -> {
			if (credentials instanceof String[] pair && pair.length == 2 && JmxAgent.USER.equals(pair[0])
					&& password.equals(pair[1])) {
				return new Subject();
			}
			throw new SecurityException("wrong credentials: " + Arrays.toString((Object[]) credentials));
		};
		JMXServiceURL url = new JMXServiceURL("service:jmx:rmi://" + DockerHost.LOOPBACK + ":" + serverPort
				+ "/jndi/rmi://" + DockerHost.LOOPBACK + ":" + registryPort + "/jmxrmi");
		JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(url,
				Map.of(JMXConnectorServer.AUTHENTICATOR, authenticator,
						RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, loopback),
				ManagementFactory.getPlatformMBeanServer());
		server.start();
		return new LoopbackJmxAgent(registry, server, JmxAgent.at(name, DockerHost.LOOPBACK, registryPort, password));
	}

	/** The agent, as a probe connects to it. */
	public JmxAgent agent() {
		return this.agent;
	}

	@Override
	public void close() throws IOException {
		this.server.stop();
		try {
			UnicastRemoteObject.unexportObject(this.registry, true);
		}
		catch (NoSuchObjectException ex) {
			// already gone
		}
	}

}
