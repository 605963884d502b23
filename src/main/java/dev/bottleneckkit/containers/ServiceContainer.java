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

}
