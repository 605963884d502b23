package dev.bottleneckkit.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Ports;
import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.Databases;
import dev.bottleneckkit.internal.DockerHost;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.Passwords;
import dev.bottleneckkit.internal.RunHook;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

/**
 * The infrastructure containers scenarios share, configured once: image from
 * {@link KitImages}, the kit's ownership labels, a network alias, and the kit's start-up
 * timeout. Their starts take turns with load runs, as {@link ServiceContainer}'s do.
 */
public final class KitContainers {

	/** Network alias of {@link #mysql}. */
	public static final String MYSQL_ALIAS = "mysql";

	/** Network alias of {@link #toxiproxy}. */
	public static final String TOXIPROXY_ALIAS = "toxiproxy";

	/** The database user of {@link #mysql}. */
	public static final String MYSQL_USER = "bottleneck";

	private KitContainers() {
	}

	/**
	 * MySQL (or the offline stand-in) on {@code network} as {@value #MYSQL_ALIAS};
	 * answers {@code SELECT SLEEP(n)}. Its user is {@value #MYSQL_USER}, with a password
	 * new for every container (root's too), never logged: read it with
	 * {@code getPassword()}.
	 */
	public static MySQLContainer mysql(Network network) {
		MySQLContainer mysql = guarded(new MySQLContainer(KitImages.mysql()) {

			@Override
			public void start() {
				if (getContainerId() != null) {
					return;
				}
				try (RunHook.Span starting = RunHook.installed()
					.begin(RunHook.Work.CONTAINER_START, "starting MySQL")) {
					super.start();
				}
			}

		}).withUsername(MYSQL_USER)
			.withPassword(Passwords.random())
			.withNetwork(network)
			.withNetworkAliases(MYSQL_ALIAS)
			.withStartupTimeout(KitImages.STARTUP_TIMEOUT);
		// A sweep of a service on this network reads its lock tables (DatabaseLocks).
		Databases.register(mysql);
		return mysql;
	}

	/**
	 * A proxy named {@code name} in {@code toxiproxy}, listening on its port
	 * {@code listenPort} (8666–8697) and forwarding to {@code upstream}
	 * ({@code host:port} on the network): address it from other containers as
	 * {@code toxiproxy:<listenPort>}.
	 */
	public static Proxy proxy(ToxiproxyContainer toxiproxy, String name, int listenPort, String upstream) {
		Knobs.between("toxiproxy listenPort", listenPort, 8666, 8697);
		try {
			return new ToxiproxyClient(toxiproxy.getHost(), toxiproxy.getControlPort()).createProxy(name,
					"0.0.0.0:" + listenPort, upstream);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot create Toxiproxy proxy " + name + " to " + upstream, ex);
		}
	}

	/** Removes every toxic of {@code proxy}: the network is healthy again. */
	public static void heal(Proxy proxy) {
		try {
			for (Toxic toxic : proxy.toxics().getAll()) {
				toxic.remove();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot remove the toxics of proxy " + proxy.getName(), ex);
		}
	}

	/**
	 * Toxiproxy on {@code network} as {@value #TOXIPROXY_ALIAS}; proxies listen on its
	 * ports 8666–8697.
	 */
	public static ToxiproxyContainer toxiproxy(Network network) {
		return guarded(new ToxiproxyContainer(KitImages.toxiproxy()) {

			@Override
			public void start() {
				if (getContainerId() != null) {
					return;
				}
				try (RunHook.Span starting = RunHook.installed()
					.begin(RunHook.Work.CONTAINER_START, "starting Toxiproxy")) {
					super.start();
				}
			}

		}).withNetwork(network).withNetworkAliases(TOXIPROXY_ALIAS).withStartupTimeout(KitImages.STARTUP_TIMEOUT);
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
		container.withCreateContainerCmdModifier(KitContainers::publishOnLoopback);
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
