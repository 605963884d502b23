package dev.bottleneckkit.containers;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.ContainerCpu;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.JvmOptions;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.RunHook;
import org.rnorth.ducttape.ratelimits.RateLimiterBuilder;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.core.CreateContainerCmdModifier;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * The base of every service the kit loads and probes, self-typed as Testcontainers'
 * {@code JdbcDatabaseContainer} is, so that a subclass's {@code withX} calls keep its own
 * type: any image, its HTTP port, a health path to wait for, environment, Spring Boot
 * properties and JVM options. {@link ServiceContainer} is the one for a team's own image;
 * {@link DownstreamContainer} a stand-in downstream; extend it for a service of your own
 * with settings of its own:
 *
 * <pre>{@code
 * public class OrdersContainer extends AbstractServiceContainer<OrdersContainer> {
 *     public OrdersContainer() { super(DockerImageName.parse("registry.example.com/orders:1.4.2")); }
 *     public OrdersContainer withPaymentsUrl(String url) { return withSpringProperty("payments.url", url); }
 * }
 * }</pre>
 *
 * Observable by default: the start enables the JVM's JMX agent on loopback with a
 * password of its own (thread dumps, pinned threads, memory) and, for Spring Boot,
 * Actuator's metrics and Tomcat's MBean registry ({@link #withoutJmx()},
 * {@link #withoutSpringBootSettings()} turn them off). The container carries the kit's
 * ownership labels, so a run killed half-way is cleaned up by the next, and its output
 * goes to {@code target/bottleneck-report/logs/<name>-<n>.log}.
 *
 * @param <SELF> the subclass, returned by every {@code withX}
 */
public abstract class AbstractServiceContainer<SELF extends AbstractServiceContainer<SELF>>
		extends GenericContainer<SELF> {

	/** The HTTP port inside the container unless {@link #withPort} says otherwise. */
	public static final int DEFAULT_PORT = 8080;

	/**
	 * What the container is ready on unless {@link #withHealthPath} says otherwise:
	 * Spring Boot Actuator's health.
	 */
	public static final String DEFAULT_HEALTH_PATH = "/actuator/health";

	private static final AtomicInteger instances = new AtomicInteger();

	/** {@code management.endpoints.web.exposure.include}, as the environment names it. */
	private static final String EXPOSURE = "MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE";

	/** {@code server.tomcat.mbeanregistry.enabled}, as the environment names it. */
	private static final String TOMCAT_MBEANS = "SERVER_TOMCAT_MBEANREGISTRY_ENABLED";

	/** {@code management.endpoints.jmx.exposure.include}, as the environment names it. */
	private static final String JMX_EXPOSURE = "MANAGEMENT_ENDPOINTS_JMX_EXPOSURE_INCLUDE";

	/** {@code spring.jmx.enabled}, as the environment names it. */
	private static final String SPRING_JMX = "SPRING_JMX_ENABLED";

	/** {@code spring.application.admin.enabled}, as the environment names it. */
	private static final String SPRING_ADMIN = "SPRING_APPLICATION_ADMIN_ENABLED";

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

	/** Whether the start enables the JVM's JMX agent (thread dumps, pinning, memory). */
	private boolean jmx = true;

	/** Whether the start sets what Spring Boot needs to publish the probes' meters. */
	private boolean springBootSettings = true;

	/**
	 * The environment as the test configured it, before the first start added the kit's
	 * own (the JMX agent, the meters): what a container configured alike starts from.
	 */
	private Map<String, String> configuredEnv;

	/** The create-command settings the kit adds to every container it makes. */
	private final Set<CreateContainerCmdModifier> kitModifiers;

	/**
	 * The create-command settings as the test configured them (CPU, memory), at the first
	 * start.
	 */
	private Set<CreateContainerCmdModifier> configuredModifiers;

	/** A service from {@code image}. */
	protected AbstractServiceContainer(DockerImageName image) {
		super(image);
		this.image = image.asCanonicalNameString();
		this.imageName = image;
		KitContainers.guarded(this);
		this.kitModifiers = Set.copyOf(getCreateContainerCmdModifiers());
		ownFilesForTheJmxAgent();
	}

	/**
	 * A service from an image built while the tests run (e.g. Testcontainers'
	 * {@code ImageFromDockerfile}).
	 */
	protected AbstractServiceContainer(Future<String> image) {
		super(image);
		this.image = "an image built for this run";
		this.imageName = null;
		KitContainers.guarded(this);
		this.kitModifiers = Set.copyOf(getCreateContainerCmdModifiers());
		ownFilesForTheJmxAgent();
	}

	/**
	 * Tells the JVM's JMX agent, whoever enables it, to copy its password file in owned
	 * by the image's user (a JVM refuses a password file others may read), and the
	 * service's name for its messages.
	 */
	private void ownFilesForTheJmxAgent() {
		JmxAgent.ownedFilesOf(this, new JmxAgent.OwnedFiles() {

			@Override
			public void copyOwnedByServiceUser(Transferable file, String path) {
				withCopyOwnedByServiceUser(file, path);
			}

			@Override
			public String name() {
				return AbstractServiceContainer.this.name();
			}

		});
	}

	/**
	 * The port the service listens on inside the container, 1 to 65 535 (default
	 * {@value #DEFAULT_PORT}).
	 */
	public SELF withPort(int port) {
		this.port = Knobs.between("port", port, 1, 65_535);
		return self();
	}

	/**
	 * The path that answers 200 once the service is ready (default
	 * {@value #DEFAULT_HEALTH_PATH}); the start waits for it up to the startup timeout
	 * (default 2 min).
	 */
	public SELF withHealthPath(String path) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("healthPath must start with '/', was '" + path + "'");
		}
		this.healthPath = path;
		return self();
	}

	/** How long the start may wait for the health path, 1 s to 30 min (default 2 min). */
	@Override
	public SELF withStartupTimeout(Duration timeout) {
		this.startupTimeout = Knobs.between("startupTimeout", timeout, Duration.ofSeconds(1), Duration.ofMinutes(30));
		return self();
	}

	/**
	 * The name of its log file and of this service in messages (default: the image's
	 * name, e.g. {@code orders}).
	 */
	public SELF withName(String name) {
		if (name == null || !name.matches("[A-Za-z0-9._-]{1,60}")) {
			throw new IllegalArgumentException(
					"name must be 1 to 60 letters, digits, '.', '_' or '-', was '" + name + "'");
		}
		this.name = name;
		return self();
	}

	/**
	 * A Spring Boot property, set through the environment as Boot's relaxed binding reads
	 * it: {@code server.tomcat.threads.max} becomes {@code SERVER_TOMCAT_THREADS_MAX}.
	 */
	public SELF withSpringProperty(String property, Object value) {
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
	 * Leaves the JVM's JMX agent off: no thread dumps, pinned threads or memory readings
	 * for this service (its sweeps say so). By default the start enables it on loopback,
	 * with a password new for every container ({@code JAVA_TOOL_OPTIONS}, read by every
	 * HotSpot JVM).
	 */
	public SELF withoutJmx() {
		this.jmx = false;
		return self();
	}

	/**
	 * Leaves the service's Spring Boot properties as they are. By default the start
	 * exposes Actuator's {@code metrics} endpoint (added to an exposure list set with
	 * {@link #withSpringProperty}; an image's own list in its
	 * {@code application.properties} is replaced for the test) and turns on Tomcat's
	 * MBean registry, which its thread meters need: environment variables, harmless to a
	 * service that is not Spring Boot.
	 */
	public SELF withoutSpringBootSettings() {
		this.springBootSettings = false;
		return self();
	}

	/**
	 * The CPU time the service's container has used since it started, the JIT, the
	 * collector and the server included: read from its cgroup on this host, else with a
	 * {@code cat} in the container, else from the engine's statistics; asked anew at each
	 * call. Two readings around a load give the CPU its requests cost, the S of the
	 * utilization law U = X × S.
	 */
	public Duration readCpuUsed() {
		return ContainerCpu.on(this).used();
	}

	/** Whether the start enables the JVM's JMX agent ({@link #withoutJmx()}). */
	public boolean jmxEnabled() {
		return this.jmx;
	}

	/**
	 * JVM flags for the service, added to {@code JAVA_TOOL_OPTIONS} (which every HotSpot
	 * JVM reads, whatever the image's entry point; behind the image's own, which it
	 * keeps), e.g. {@code -Xmx512m -Djdk.virtualThreadScheduler.parallelism=2}.
	 */
	public SELF withJvmOptions(String options) {
		JvmOptions.append(this, options);
		return self();
	}

	/**
	 * Limits the container to {@code cpus} CPUs (Docker's {@code --cpus}), 0.1 to 64; a
	 * JVM sizes itself to it.
	 */
	public SELF withCpuLimit(double cpus) {
		long nanoCpus = Math.round(Knobs.between("cpus", cpus, 0.1, 64.0) * 1e9);
		return withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withNanoCPUs(nanoCpus));
	}

	/**
	 * Limits the container's memory to {@code mebibytes} (16 MiB to 1 TiB), swap included
	 * (Docker's {@code --memory} and {@code --memory-swap} alike): past it, the kernel
	 * kills the service, as it would in a pod with a memory limit.
	 */
	public SELF withMemoryLimit(int mebibytes) {
		long bytes = Knobs.between("mebibytes", mebibytes, 16, 1_048_576) * 1_048_576L;
		return withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withMemory(bytes).withMemorySwap(bytes));
	}

	/**
	 * Copies {@code file} to {@code containerPath} before the service starts, owned by
	 * the user the image runs as (numeric, or named in the image's {@code /etc/passwd}):
	 * for a file only that user may read, such as a credential with mode 0600, which a
	 * copy owned by root would hide from a service that does not run as root.
	 */
	public SELF withCopyOwnedByServiceUser(Transferable file, String containerPath) {
		if (containerPath == null || !containerPath.startsWith("/")) {
			throw new IllegalArgumentException("containerPath must be absolute, was '" + containerPath + "'");
		}
		this.ownedByServiceUser.put(containerPath, file);
		return self();
	}

	/**
	 * The environment as the test configured it, before the first start added the kit's
	 * own; the current one before that start.
	 */
	Map<String, String> configuredEnv() {
		return new LinkedHashMap<>((this.configuredEnv != null) ? this.configuredEnv : getEnvMap());
	}

	/**
	 * The create-command settings the test gave (CPU, memory), not the kit's own nor
	 * those its start added.
	 */
	Set<CreateContainerCmdModifier> configuredModifiers() {
		Set<CreateContainerCmdModifier> configured = new LinkedHashSet<>(
				(this.configuredModifiers != null) ? this.configuredModifiers : getCreateContainerCmdModifiers());
		configured.removeAll(this.kitModifiers);
		return configured;
	}

	/** The files copied in before the start, by path, owned by the image's user. */
	Map<String, Transferable> ownedFiles() {
		return new LinkedHashMap<>(this.ownedByServiceUser);
	}

	String healthPath() {
		return this.healthPath;
	}

	Duration startupTimeout() {
		return this.startupTimeout;
	}

	boolean springBootSettings() {
		return this.springBootSettings;
	}

	/**
	 * The image this service starts from, when it is a named one (not built in the run).
	 */
	public Optional<DockerImageName> image() {
		return Optional.ofNullable(this.imageName);
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
		if (this.configuredEnv == null) {
			this.configuredEnv = new LinkedHashMap<>(getEnvMap());
			this.configuredModifiers = new LinkedHashSet<>(getCreateContainerCmdModifiers());
			this.configuredModifiers.removeAll(this.kitModifiers);
		}
		try (RunHook.Span starting = RunHook.installed().begin(RunHook.Work.CONTAINER_START, "starting " + name())) {
			if (this.jmx) {
				JmxAgent.on(this);
			}
			if (this.springBootSettings) {
				exposeSpringBootMeters();
			}
			ImagePull.ensure(this.imageName, this.startupTimeout);
			JvmOptions.keepTheImages(this, getDockerImageName());
			super.start();
			String id = getContainerId();
			RunHook.installed().started(name(), () -> ContainerCpu.onHost(id).orElse(-1));
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException(StartFailure.explain(ex, name(), this.image, this.healthPath, this.port,
					this.startupTimeout, this.logs), ex);
		}
	}

	/**
	 * {@code metrics} and {@code prometheus} among Actuator's exposed endpoints, Tomcat's
	 * MBean registry on: the meters the probes read, as JSON or as Prometheus text (a
	 * service that turns the JSON endpoint off, or has a Prometheus registry only, is
	 * read from its scrape). Set through the environment, so a property the test set
	 * stays and is only added to.
	 */
	void exposeSpringBootMeters() {
		exposeMetrics(EXPOSURE, "metrics", "prometheus");
		if (!getEnvMap().containsKey(TOMCAT_MBEANS)) {
			withEnv(TOMCAT_MBEANS, "true");
		}
		// The same endpoint over JMX, where the probes read it. A read over HTTP needs
		// one of the request threads it counts: where all are busy it waits behind the
		// load, or takes a thread from it (the pool reads one short).
		if (this.jmx) {
			exposeMetrics(JMX_EXPOSURE, "metrics");
			if (!getEnvMap().containsKey(SPRING_JMX)) {
				withEnv(SPRING_JMX, "true");
			}
			// Spring Boot's admin MBean answers a property's value as the service
			// resolves it: where a rate limiter's rate is read, which no meter publishes.
			// Behind the agent's password, on loopback, like every other MBean.
			if (!getEnvMap().containsKey(SPRING_ADMIN)) {
				withEnv(SPRING_ADMIN, "true");
			}
		}
	}

	/** {@code endpoints} added to those {@code variable} exposes. */
	private void exposeMetrics(String variable, String... endpoints) {
		String exposure = getEnvMap().get(variable);
		List<String> exposed = new ArrayList<>();
		if (exposure == null || exposure.isBlank()) {
			exposed.add("health");
		}
		else {
			List.of(exposure.split(",")).stream().map(String::trim).forEach(exposed::add);
		}
		if (exposed.contains("*")) {
			return;
		}
		for (String endpoint : endpoints) {
			if (!exposed.contains(endpoint)) {
				exposed.add(endpoint);
			}
		}
		withEnv(variable, String.join(",", exposed));
	}

	/** Stops the service, telling a test harness's hook how long it took. */
	@Override
	public void stop() {
		try (RunHook.Span stopping = RunHook.installed().begin(RunHook.Work.CONTAINER_STOP, "stopping " + name())) {
			super.stop();
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
