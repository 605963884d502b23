package dev.bottleneckkit.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

import org.testcontainers.DockerClientFactory;

/**
 * Facts about the Docker engine and this host that the kit's resources carry: the labels
 * that say which host and process own a container, network or image (so that a later run
 * removes what a killed JVM left behind), and whether the engine is local, so that
 * published ports belong on loopback.
 */
public final class DockerHost {

	/** Present on every kit resource. */
	public static final String KIT_LABEL = "dev.bottleneckkit";

	/** The process id of the JVM that created the resource. */
	public static final String PID_LABEL = "dev.bottleneckkit.pid";

	/** The host that JVM ran on: leftovers are only judged on the host that made them. */
	public static final String HOST_LABEL = "dev.bottleneckkit.host";

	/**
	 * A container's name in the CPU split, as a person knows it ("socket reader"); the
	 * kit sets it on the small containers its probes start.
	 */
	public static final String NAME_LABEL = "dev.bottleneckkit.name";

	/** Where published ports are bound with a local engine. */
	public static final String LOOPBACK = "127.0.0.1";

	private DockerHost() {
	}

	/** The labels of a resource this JVM makes: kit, pid and host. */
	public static Map<String, String> ownerLabels() {
		return Map.of(KIT_LABEL, "true", PID_LABEL, Long.toString(ProcessHandle.current().pid()), HOST_LABEL,
				hostName());
	}

	/** This host's name, as the labels record it. */
	public static String hostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

	/**
	 * Whether the Docker engine runs on this machine, so that loopback is where the test
	 * reaches its ports.
	 */
	public static boolean engineIsLocal() {
		try {
			return InetAddress.getByName(DockerClientFactory.instance().dockerHostIpAddress()).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
