package dev.bottleneckkit.containers;

import java.util.concurrent.Future;

import org.testcontainers.utility.DockerImageName;

/**
 * Your HTTP service in a container, the thing the kit loads and probes: any image, its
 * HTTP port, a health path to wait for, environment and JVM options. Every probe works on
 * it without set-up: the start enables the JVM's JMX agent (thread dumps, pinned virtual
 * threads, memory) and Spring Boot's meters (see {@link AbstractServiceContainer}).
 *
 * <pre>{@code
 * &#64;Container
 * static final ServiceContainer orders = new ServiceContainer("registry.example.com/orders:1.4.2")
 *     .withPort(8080)                                  // default 8080
 *     .withHealthPath("/actuator/health")              // default; answered 200 = ready
 *     .withSpringProperty("server.tomcat.threads.max", 50)
 *     .withJvmOptions("-Xmx512m");
 * ...
 * SweepResult sweep = Sweep.of(orders, "/orders/42").run();
 * }</pre>
 */
public class ServiceContainer extends AbstractServiceContainer<ServiceContainer> {

	/** A service from {@code image}, e.g. {@code "registry.example.com/orders:1.4.2"}. */
	public ServiceContainer(String image) {
		this(DockerImageName.parse(image));
	}

	/** A service from {@code image}. */
	public ServiceContainer(DockerImageName image) {
		super(image);
	}

	/**
	 * A service from an image built while the tests run (e.g. Testcontainers'
	 * {@code ImageFromDockerfile}).
	 */
	public ServiceContainer(Future<String> image) {
		super(image);
	}

	/**
	 * A service from {@code image} configured as the test configured {@code service}: its
	 * environment (Spring properties, JVM options) before the kit added its own, its
	 * port, health path and startup timeout, its CPU and memory limits and other
	 * create-command settings, its network, the files it copies in, and whether it is
	 * observable; named after it with {@code suffix}. Not started, and reachable by no
	 * network alias: nothing but the test calls it. An A/B sweep starts its base this way
	 * ({@code Sweep.against(image)}).
	 */
	public static ServiceContainer alike(AbstractServiceContainer<?> service, DockerImageName image, String suffix) {
		ServiceContainer alike = new ServiceContainer(image).withPort(service.port())
			.withHealthPath(service.healthPath())
			.withStartupTimeout(service.startupTimeout())
			.withName(service.name() + suffix);
		alike.withEnv(service.configuredEnv());
		alike.getCreateContainerCmdModifiers().addAll(service.configuredModifiers());
		service.ownedFiles().forEach((path, file) -> alike.withCopyOwnedByServiceUser(file, path));
		if (service.getNetwork() != null) {
			alike.withNetwork(service.getNetwork());
		}
		if (!service.jmxEnabled()) {
			alike.withoutJmx();
		}
		if (!service.springBootSettings()) {
			alike.withoutSpringBootSettings();
		}
		return alike;
	}

}
