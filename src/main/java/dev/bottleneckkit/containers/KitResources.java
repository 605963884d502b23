package dev.bottleneckkit.containers;

import java.util.HashMap;
import java.util.Map;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Ports;
import dev.bottleneckkit.internal.DockerHost;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * Labels every container and network the kit starts with the host and process that own
 * it, so that a later run can remove what a killed JVM left behind (there is no Ryuk
 * reaper on machines without a registry). Use {@link #labelled} on any container a
 * scenario adds and {@link #newNetwork} for networks.
 */
public final class KitResources {

	private KitResources() {
	}

	/** Adds the kit's ownership labels to {@code container} and returns it. */
	public static <T extends GenericContainer<?>> T labelled(T container) {
		ownerLabels().forEach(container::withLabel);
		return container;
	}

	/**
	 * {@link #labelled} and, with a local Docker engine, every published port bound to
	 * 127.0.0.1 instead of all interfaces: a database, a proxy or a JMX agent a test
	 * opens is not reachable from other machines. (A remote engine publishes on its own
	 * interfaces, which is where the test reaches it.) Every container the kit makes is
	 * guarded; guard any a scenario adds.
	 */
	public static <T extends GenericContainer<?>> T guarded(T container) {
		labelled(container);
		container.withCreateContainerCmdModifier(KitResources::publishOnLoopback);
		return container;
	}

	private static void publishOnLoopback(CreateContainerCmd cmd) {
		if (!DockerHost.engineIsLocal() || cmd.getHostConfig() == null
				|| cmd.getHostConfig().getPortBindings() == null) {
			return;
		}
		Ports loopback = new Ports();
		cmd.getHostConfig().getPortBindings().getBindings().forEach((port, bindings) -> {
			for (Ports.Binding binding : (bindings != null) ? bindings : new Ports.Binding[0]) {
				boolean anyInterface = binding.getHostIp() == null || binding.getHostIp().isEmpty()
						|| "0.0.0.0".equals(binding.getHostIp());
				loopback.bind(port,
						anyInterface ? new Ports.Binding(DockerHost.LOOPBACK, binding.getHostPortSpec()) : binding);
			}
		});
		cmd.getHostConfig().withPortBindings(loopback);
		// Ports left to "publish all" would go to every interface.
		cmd.getHostConfig().withPublishAllPorts(false);
	}

	/**
	 * A new Docker network carrying the kit's ownership labels. A {@code @Scenario}
	 * closes its static {@code Network} fields after Testcontainers has stopped their
	 * containers; close any other when done.
	 */
	public static Network newNetwork() {
		return Network.builder().createNetworkCmdModifier((cmd) -> {
			Map<String, String> labels = new HashMap<>((cmd.getLabels() != null) ? cmd.getLabels() : Map.of());
			labels.putAll(ownerLabels());
			cmd.withLabels(labels);
		}).build();
	}

	/**
	 * The labels {@link #labelled} adds: for anything else the kit makes (an image, a
	 * volume).
	 */
	public static Map<String, String> ownerLabels() {
		return DockerHost.ownerLabels();
	}

}
