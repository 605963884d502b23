package dev.bottleneckkit.containers;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Ports;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * Labels every container and network the kit starts with the host and process that own it, so that a
 * later run can remove what a killed JVM left behind (there is no Ryuk reaper on machines without a
 * registry). Use {@link #labelled} on any container a scenario adds and {@link #newNetwork} for networks.
 */
public final class KitResources {

	/** Present on every kit resource. */
	public static final String KIT_LABEL = "dev.bottleneckkit";

	/** The process id of the JVM that created the resource. */
	public static final String PID_LABEL = "dev.bottleneckkit.pid";

	/** Where published ports are bound with a local engine. */
	public static final String LOOPBACK = "127.0.0.1";

	/** The host that JVM ran on: leftovers are only judged on the host that made them. */
	public static final String HOST_LABEL = "dev.bottleneckkit.host";

	private KitResources() {
	}

	/** Adds the kit's ownership labels to {@code container} and returns it. */
	public static <T extends GenericContainer<?>> T labelled(T container) {
		ownerLabels().forEach(container::withLabel);
		return container;
	}

	/**
	 * {@link #labelled} and, with a local Docker engine, every published port bound to 127.0.0.1 instead of
	 * all interfaces: a database, a proxy or a JMX agent a test opens is not reachable from other machines.
	 * (A remote engine publishes on its own interfaces, which is where the test reaches it.) Every container
	 * the kit makes is guarded; guard any a scenario adds.
	 */
	public static <T extends GenericContainer<?>> T guarded(T container) {
		labelled(container);
		container.withCreateContainerCmdModifier(KitResources::publishOnLoopback);
		return container;
	}

	private static void publishOnLoopback(CreateContainerCmd cmd) {
		if (!dockerEngineIsLocal() || cmd.getHostConfig() == null || cmd.getHostConfig().getPortBindings() == null) {
			return;
		}
		Ports loopback = new Ports();
		cmd.getHostConfig().getPortBindings().getBindings().forEach((port, bindings) -> {
			for (Ports.Binding binding : (bindings != null) ? bindings : new Ports.Binding[0]) {
				boolean anyInterface = binding.getHostIp() == null || binding.getHostIp().isEmpty()
						|| "0.0.0.0".equals(binding.getHostIp());
				loopback.bind(port, anyInterface ? new Ports.Binding(LOOPBACK, binding.getHostPortSpec()) : binding);
			}
		});
		cmd.getHostConfig().withPortBindings(loopback);
		// Ports left to "publish all" would go to every interface.
		cmd.getHostConfig().withPublishAllPorts(false);
	}

	/** Whether the Docker engine runs on this machine, so that loopback is where the test reaches its ports. */
	public static boolean dockerEngineIsLocal() {
		try {
			return InetAddress.getByName(DockerClientFactory.instance().dockerHostIpAddress()).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	/**
	 * A new Docker network carrying the kit's ownership labels. A {@code @Scenario} closes its static
	 * {@code Network} fields after Testcontainers has stopped their containers; close any other when done.
	 */
	public static Network newNetwork() {
		return Network.builder().createNetworkCmdModifier((cmd) -> {
			Map<String, String> labels = new HashMap<>((cmd.getLabels() != null) ? cmd.getLabels() : Map.of());
			labels.putAll(ownerLabels());
			cmd.withLabels(labels);
		}).build();
	}

	/** The labels {@link #labelled} adds: for anything else the kit makes (an image, a volume). */
	public static Map<String, String> ownerLabels() {
		return Map.of(KIT_LABEL, "true", PID_LABEL, Long.toString(ProcessHandle.current().pid()), HOST_LABEL, hostName());
	}

	/** This host's name, as the labels record it. */
	public static String hostName() {
		try {
			return java.net.InetAddress.getLocalHost().getHostName();
		}
		catch (java.net.UnknownHostException ex) {
			return "unknown";
		}
	}

}
