package dev.bottleneckkit.containers;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.JvmOptions;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.Phases;
import org.rnorth.ducttape.ratelimits.RateLimiterBuilder;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * Your HTTP service in a container, the thing the kit loads and probes: any image, its
 * HTTP port, a health path to wait for, environment and JVM options. Every probe works on
 * it: {@code ServiceGauges.on(service)} on any Spring Boot Actuator,
 * {@code PinningProbe.on(service)} and {@code ThreadDumpProbe.on(service)} on any HotSpot
 * JVM (they add JMX flags through {@code JAVA_TOOL_OPTIONS}, which every HotSpot JVM
 * reads).
 *
 * <pre>{@code
 * &#64;Container
 * static final ServiceContainer orders = new ServiceContainer("registry.example.com/orders:1.4.2")
 *     .withPort(8080)                                  // default 8080
 *     .withHealthPath("/actuator/health")              // default; answered 200 = ready
 *     .withSpringProperty("server.tomcat.threads.max", 50)
 *     .withJvmOptions("-Xmx512m");
 * ...
 * ClosedLoopLoad.users(40).run(orders.uri("/orders/42"));
 * }</pre>
 *
 * The container carries the kit's ownership labels, so a run killed half-way is cleaned
 * up by the next, and its output goes to
 * {@code target/bottleneck-report/logs/<name>-<n>.log}.
 */
public class ServiceContainer extends GenericContainer<ServiceContainer> {

	/** The HTTP port inside the container unless {@link #withPort} says otherwise. */
	public static final int DEFAULT_PORT = 8080;

	/**
	 * What the container is ready on unless {@link #withHealthPath} says otherwise:
	 * Spring Boot Actuator's health.
	 */
	public static final String DEFAULT_HEALTH_PATH = "/actuator/health";

	private static final AtomicInteger instances = new AtomicInteger();

	private int port = DEFAULT_PORT;

	private String healthPath = DEFAULT_HEALTH_PATH;

	private Duration startupTimeout = KitImages.STARTUP_TIMEOUT;

	private String name;

	private ContainerLogs logs;

	private final String image;

	/**
	 * The image's name when it is one (not built during the run): pulled by
	 * {@link #ensureImage} if absent.
	 */
	private final DockerImageName imageName;

	private final Map<String, Transferable> ownedByServiceUser = new LinkedHashMap<>();

	/** A service from {@code image}, e.g. {@code "registry.example.com/orders:1.4.2"}. */
	public ServiceContainer(String image) {
		this(DockerImageName.parse(image));
	}

	/** A service from {@code image}. */
	public ServiceContainer(DockerImageName image) {
		super(image);
		this.image = image.asCanonicalNameString();
		this.imageName = image;
		KitContainers.guarded(this);
	}

	/**
	 * A service from an image built while the tests run (e.g. Testcontainers'
	 * {@code ImageFromDockerfile}).
	 */
	public ServiceContainer(Future<String> image) {
		super(image);
		this.image = "an image built for this run";
		this.imageName = null;
		KitContainers.guarded(this);
	}

	/**
	 * The port the service listens on inside the container, 1 to 65 535 (default
	 * {@value #DEFAULT_PORT}).
	 */
	public ServiceContainer withPort(int port) {
		this.port = Knobs.between("port", port, 1, 65_535);
		return this;
	}

	/**
	 * The path that answers 200 once the service is ready (default
	 * {@value #DEFAULT_HEALTH_PATH}); the start waits for it up to the startup timeout
	 * (default 2 min).
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

	/**
	 * The name of its log file and of this service in messages (default: the image's
	 * name, e.g. {@code orders}).
	 */
	public ServiceContainer withName(String name) {
		if (name == null || !name.matches("[A-Za-z0-9._-]{1,60}")) {
			throw new IllegalArgumentException(
					"name must be 1 to 60 letters, digits, '.', '_' or '-', was '" + name + "'");
		}
		this.name = name;
		return this;
	}

	/**
	 * A Spring Boot property, set through the environment as Boot's relaxed binding reads
	 * it: {@code server.tomcat.threads.max} becomes {@code SERVER_TOMCAT_THREADS_MAX}.
	 */
	public ServiceContainer withSpringProperty(String property, Object value) {
		if (property == null || !property.matches("[a-z0-9][a-z0-9.\\-\\[\\]]*")) {
			throw new IllegalArgumentException(
					"Spring property must be in canonical form (lower-case, '.' and '-'), e.g. server.tomcat.threads.max, was '"
							+ property + "'");
		}
		String variable = property.replace("[", "_")
			.replace("]", "")
			.replace('.', '_')
			.replace("-", "")
			.toUpperCase(Locale.ROOT);
		return withEnv(variable, String.valueOf(value));
	}

	/**
	 * JVM flags for the service, added to {@code JAVA_TOOL_OPTIONS} (which every HotSpot
	 * JVM reads, whatever the image's entry point; behind the image's own, which it
	 * keeps), e.g. {@code -Xmx512m -Djdk.virtualThreadScheduler.parallelism=2}.
	 */
	public ServiceContainer withJvmOptions(String options) {
		JvmOptions.append(this, options);
		return this;
	}

	/**
	 * Limits the container to {@code cpus} CPUs (Docker's {@code --cpus}), 0.1 to 64; a
	 * JVM sizes itself to it.
	 */
	public ServiceContainer withCpuLimit(double cpus) {
		long nanoCpus = Math.round(Knobs.between("cpus", cpus, 0.1, 64.0) * 1e9);
		return withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withNanoCPUs(nanoCpus));
	}

	/**
	 * Limits the container's memory to {@code mebibytes} (16 MiB to 1 TiB), swap included
	 * (Docker's {@code --memory} and {@code --memory-swap} alike): past it, the kernel
	 * kills the service, as it would in a pod with a memory limit.
	 */
	public ServiceContainer withMemoryLimit(int mebibytes) {
		long bytes = Knobs.between("mebibytes", mebibytes, 16, 1_048_576) * 1_048_576L;
		return withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withMemory(bytes).withMemorySwap(bytes));
	}

	/**
	 * Copies {@code file} to {@code containerPath} before the service starts, owned by
	 * the user the image runs as (numeric, or named in the image's {@code /etc/passwd}):
	 * for a file only that user may read, such as a credential with mode 0600, which a
	 * copy owned by root would hide from a service that does not run as root.
	 */
	public ServiceContainer withCopyOwnedByServiceUser(Transferable file, String containerPath) {
		if (containerPath == null || !containerPath.startsWith("/")) {
			throw new IllegalArgumentException("containerPath must be absolute, was '" + containerPath + "'");
		}
		this.ownedByServiceUser.put(containerPath, file);
		return this;
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
		if (this.imageName == null) {
			return "service";
		}
		// From the name as given: asking Testcontainers for the image would pull it.
		String repository = this.imageName.getRepository();
		return repository.substring(repository.lastIndexOf('/') + 1);
	}

	/**
	 * The URI of {@code path} on this service as the test JVM reaches it, e.g.
	 * {@code uri("/orders/42")}.
	 */
	public URI uri(String path) {
		return URI.create("http://" + getHost() + ":" + getMappedPort(this.port) + path);
	}

	/**
	 * Starts the service and waits for its health path. A start that fails says in one
	 * line what to change: an image that is not there, a health path that never answers
	 * 200 (with the service's last log lines). Starts take turns with load runs when
	 * scenario classes run side by side: a JVM starting does not bend a measurement.
	 */
	@Override
	public void start() {
		if (getContainerId() != null) {
			return;
		}
		try (Phases.Turn starting = Phases.enter(Phases.Phase.STARTING, "starting " + name())) {
			ImagePull.ensure(this.imageName, this.startupTimeout);
			JvmOptions.keepTheImages(this, getDockerImageName());
			super.start();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException(StartFailure.explain(ex, name(), this.image, this.healthPath, this.port,
					this.startupTimeout, this.logs), ex);
		}
	}

	@Override
	protected void containerIsCreated(String containerId) {
		super.containerIsCreated(containerId);
		if (!this.ownedByServiceUser.isEmpty()) {
			OwnedFiles.copy(getDockerClient(), containerId, this.ownedByServiceUser, name());
		}
	}

	@Override
	protected void configure() {
		if (!getExposedPorts().contains(this.port)) {
			addExposedPort(this.port);
		}
		withStartupAttempts(KitImages.STARTUP_ATTEMPTS);
		// Polled ten times a second, not Testcontainers' once: a start is seen up to a
		// second sooner.
		waitingFor(Wait.forHttp(this.healthPath)
			.forPort(this.port)
			.forStatusCode(200)
			.withRateLimiter(
					RateLimiterBuilder.newBuilder().withRate(10, TimeUnit.SECONDS).withConstantThroughput().build())
			.withStartupTimeout(this.startupTimeout));
		if (this.logs == null) {
			this.logs = ContainerLogs.toFile(name() + "-" + instances.incrementAndGet());
			withLogConsumer(this.logs);
		}
	}

}
