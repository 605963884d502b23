package dev.bottleneckkit.junit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Image;
import com.github.dockerjava.api.model.Network;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.DockerHost;
import org.testcontainers.DockerClientFactory;

/**
 * Removes containers, networks and lab-service images that an earlier kit run on this
 * host left behind because its JVM was killed (no Ryuk on registry-less machines):
 * resources with the kit's labels whose owning process is no longer alive. Resources of
 * live processes, other hosts, or not the kit's are never touched.
 */
final class Leftovers {

	private static boolean reaped;

	private Leftovers() {
	}

	/** Reaps once per JVM; later calls return at once. */
	static synchronized void reapOnce() {
		if (reaped) {
			return;
		}
		reaped = true;
		DockerClient docker = DockerClientFactory.instance().client();
		Map<String, String> thisHost = Map.of(DockerHost.HOST_LABEL, DockerHost.hostName());
		List<Container> containers = docker.listContainersCmd().withShowAll(true).withLabelFilter(thisHost).exec();
		int removedContainers = 0;
		for (Container container : containers) {
			if (ownerIsGone(container.getLabels())) {
				docker.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
				removedContainers++;
			}
		}
		List<Network> networks = docker.listNetworksCmd()
			.withFilter("label", List.of(DockerHost.HOST_LABEL + "=" + DockerHost.hostName()))
			.exec();
		int removedNetworks = 0;
		for (Network network : networks) {
			if (ownerIsGone(network.getLabels())) {
				docker.removeNetworkCmd(network.getId()).exec();
				removedNetworks++;
			}
		}
		int removedImages = 0;
		for (Image image : docker.listImagesCmd().withLabelFilter(thisHost).exec()) {
			if (ownerIsGone(image.getLabels())) {
				docker.removeImageCmd(image.getId()).withForce(true).exec();
				removedImages++;
			}
		}
		if (removedContainers + removedNetworks + removedImages > 0) {
			// On the kit's console, which a project without an SLF4J provider sees too.
			Console.line(removedLine(removedContainers, removedNetworks, removedImages,
					DockerClientFactory.instance().getTransportConfig().getDockerHost().toString()));
		}
	}

	/**
	 * {@code removed 3 containers, 1 network and 0 images left behind on
	 * tcp://172.17.0.2:2375 by earlier runs whose JVM is gone}.
	 */
	static String removedLine(int containers, int networks, int images, String engine) {
		return "removed " + containers + " container" + ((containers == 1) ? "" : "s") + ", " + networks + " network"
				+ ((networks == 1) ? "" : "s") + " and " + images + " image" + ((images == 1) ? "" : "s")
				+ " left behind on " + engine + " by earlier runs whose JVM is gone";
	}

	private static boolean ownerIsGone(Map<String, String> labels) {
		String pid = (labels != null) ? labels.get(DockerHost.PID_LABEL) : null;
		if (pid == null) {
			return false;
		}
		Optional<ProcessHandle> owner = ProcessHandle.of(Long.parseLong(pid));
		return owner.isEmpty() || !owner.get().isAlive();
	}

}
