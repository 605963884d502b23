package dev.bottleneckkit.kit.containers;

import org.testcontainers.containers.Network;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import dev.bottleneckkit.kit.images.KitImages;

/**
 * The infrastructure containers scenarios share, configured once: image from {@link KitImages}, the kit's
 * ownership labels, a network alias, and the kit's start-up timeout.
 */
public final class KitContainers {

	/** Network alias of {@link #mysql}. */
	public static final String MYSQL_ALIAS = "mysql";

	/** Network alias of {@link #toxiproxy}. */
	public static final String TOXIPROXY_ALIAS = "toxiproxy";

	private KitContainers() {
	}

	/** MySQL (or the offline stand-in) on {@code network} as {@value #MYSQL_ALIAS}; answers {@code SELECT SLEEP(n)}. */
	public static MySQLContainer mysql(Network network) {
		return KitResources.labelled(new MySQLContainer(KitImages.mysql()))
			.withNetwork(network)
			.withNetworkAliases(MYSQL_ALIAS)
			.withStartupTimeout(KitImages.STARTUP_TIMEOUT);
	}

	/** Toxiproxy on {@code network} as {@value #TOXIPROXY_ALIAS}; proxies listen on its ports 8666–8697. */
	public static ToxiproxyContainer toxiproxy(Network network) {
		return KitResources.labelled(new ToxiproxyContainer(KitImages.toxiproxy()))
			.withNetwork(network)
			.withNetworkAliases(TOXIPROXY_ALIAS)
			.withStartupTimeout(KitImages.STARTUP_TIMEOUT);
	}

}
