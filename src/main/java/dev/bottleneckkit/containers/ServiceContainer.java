package dev.bottleneckkit.containers;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.ContainerLogs;
import dev.bottleneckkit.internal.Knobs;
import org.rnorth.ducttape.ratelimits.RateLimiterBuilder;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Your HTTP service in a container, the thing the kit loads and probes: any image, its HTTP port, a health
 * path to wait for, environment and JVM options. Every probe works on it: {@code ServiceGauges.on(service)}
 * on any Spring Boot Actuator, {@code PinningProbe.on(service)} and {@code ThreadDumpProbe.on(service)} on
 * any HotSpot JVM (they add JMX flags through {@code JAVA_TOOL_OPTIONS}, which every HotSpot JVM reads).
 *
 * <pre>{@code
 * @Container
 * static final ServiceContainer orders = new ServiceContainer("registry.example.com/orders:1.4.2")
 *     .withPort(8080)                                  // default 8080
 *     .withHealthPath("/actuator/health")              // default; answered 200 = ready
 *     .withSpringProperty("server.tomcat.threads.max", 50)
 *     .withJvmOptions("-Xmx512m");
 * ...
 * ClosedLoopLoad.users(40).run(orders.uri("/orders/42"));
 * }</pre>
 *
 * The container carries the kit's ownership labels, so a run killed half-way is cleaned up by the next, and
 * its output goes to {@code target/bottleneck-report/logs/<name>-<n>.log}.
 */
public class ServiceContainer extends GenericContainer<ServiceContainer> {

	/** The HTTP port inside the container unless {@link #withPort} says otherwise. */
	public static final int DEFAULT_PORT = 8080;

	/** What the container is ready on unless {@link #withHealthPath} says otherwise: Spring Boot Actuator's health. */
	public static final String DEFAULT_HEALTH_PATH = "/actuator/health";

	private static final AtomicInteger instances = new AtomicInteger();

	private int port = DEFAULT_PORT;

	private String healthPath = DEFAULT_HEALTH_PATH;

	private Duration startupTimeout = KitImages.STARTUP_TIMEOUT;

	private String name;

	private ContainerLogs logs;

	/** A service from {@code image}, e.g. {@code "registry.example.com/orders:1.4.2"}. */
	public ServiceContainer(String image) {
		this(DockerImageName.parse(image));
	}

	/** A service from {@code image}. */
	public ServiceContainer(DockerImageName image) {
		super(image);
		KitResources.labelled(this);
	}

	/** A service from an image built while the tests run (e.g. Testcontainers' {@code ImageFromDockerfile}). */
	public ServiceContainer(Future<String> image) {
		super(image);
		KitResources.labelled(this);
	}

	/** The port the service listens on inside the container, 1 to 65 535 (default {@value #DEFAULT_PORT}). */
	public ServiceContainer withPort(int port) {
		this.port = Knobs.between("port", port, 1, 65_535);
		return this;
	}

	/**
	 * The path that answers 200 once the service is ready (default {@value #DEFAULT_HEALTH_PATH}); the start
	 * waits for it up to the startup timeout (default 2 min).
	 */
	public ServiceContainer withHealthPath(String path) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("healthPath must start with '/', was '" + path + "'");
		}
		this.healthPath = path;
		return this;
	}

	/** How long the start may wait for the health path, 1 s to 30 min (default 2 min). */
	@Override
	public ServiceContainer withStartupTimeout(Duration timeout) {
		this.startupTimeout = Knobs.between("startupTimeout", timeout, Duration.ofSeconds(1), Duration.ofMinutes(30));
		return this;
	}

	/** The name of its log file and of this service in reports (default: its first network alias, else the image's name). */
	public ServiceContainer withName(String name) {
		if (name == null || !name.matches("[A-Za-z0-9._-]{1,60}")) {
			throw new IllegalArgumentException("name must be 1 to 60 letters, digits, '.', '_' or '-', was '" + name + "'");
		}
		this.name = name;
		return this;
	}

	/**
	 * A Spring Boot property, set through the environment as Boot's relaxed binding reads it:
	 * {@code server.tomcat.threads.max} becomes {@code SERVER_TOMCAT_THREADS_MAX}.
	 */
	public ServiceContainer withSpringProperty(String property, Object value) {
		if (property == null || !property.matches("[a-z0-9][a-z0-9.\\-\\[\\]]*")) {
			throw new IllegalArgumentException(
					"Spring property must be in canonical form (lower-case, '.' and '-'), e.g. server.tomcat.threads.max, was '"
							+ property + "'");
		}
		String variable = property.replace("[", "_").replace("]", "").replace('.', '_').replace("-", "")
			.toUpperCase(Locale.ROOT);
		return withEnv(variable, String.valueOf(value));
	}

	/**
	 * JVM flags for the service, added to {@code JAVA_TOOL_OPTIONS} (which every HotSpot JVM reads, whatever the
	 * image's entry point), e.g. {@code -Xmx512m -Djdk.virtualThreadScheduler.parallelism=2}.
	 */
	public ServiceContainer withJvmOptions(String options) {
		String existing = getEnvMap().get("JAVA_TOOL_OPTIONS");
		return withEnv("JAVA_TOOL_OPTIONS", (existing == null || existing.isBlank()) ? options : existing + " " + options);
	}

	/** Limits the container to {@code cpus} CPUs (Docker's {@code --cpus}), 0.1 to 64; a JVM sizes itself to it. */
	public ServiceContainer withCpuLimit(double cpus) {
		long nanoCpus = Math.round(Knobs.between("cpus", cpus, 0.1, 64.0) * 1e9);
		return withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withNanoCPUs(nanoCpus));
	}

	/** The port the service listens on inside the container. */
	public int port() {
		return this.port;
	}

	/** Its name in log files and reports. */
	public String name() {
		if (this.name != null) {
			return this.name;
		}
		if (!getNetworkAliases().isEmpty()) {
			return getNetworkAliases().get(0);
		}
		String repository = DockerImageName.parse(getDockerImageName()).getRepository();
		return repository.substring(repository.lastIndexOf('/') + 1);
	}

	/** The URI of {@code path} on this service as the test JVM reaches it, e.g. {@code uri("/orders/42")}. */
	public URI uri(String path) {
		return URI.create("http://" + getHost() + ":" + getMappedPort(this.port) + path);
	}

	@Override
	protected void configure() {
		if (!getExposedPorts().contains(this.port)) {
			addExposedPort(this.port);
		}
		withStartupAttempts(KitImages.STARTUP_ATTEMPTS);
		// Polled ten times a second, not Testcontainers' once: a start is seen up to a second sooner.
		waitingFor(Wait.forHttp(this.healthPath)
			.forPort(this.port)
			.forStatusCode(200)
			.withRateLimiter(RateLimiterBuilder.newBuilder().withRate(10, TimeUnit.SECONDS).withConstantThroughput().build())
			.withStartupTimeout(this.startupTimeout));
		if (this.logs == null) {
			this.logs = ContainerLogs.toFile(name() + "-" + instances.incrementAndGet());
			withLogConsumer(this.logs);
		}
	}

}
