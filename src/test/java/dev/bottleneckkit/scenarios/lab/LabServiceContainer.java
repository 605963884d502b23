package dev.bottleneckkit.scenarios.lab;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.probe.Gauge;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.MountableFile;

/**
 * The lab service in a container: a Spring Boot app playing the <em>downstream</em>
 * (answers after a latency, counts in-flight requests) or the <em>caller</em> (calls the
 * downstream through RestClient on Apache HttpClient 5, built as Spring Boot builds it).
 * It is one service container among any a team points the kit at; its knobs map to Spring
 * Boot properties through environment variables, and each rejects values outside its
 * range when called.
 *
 * <pre>{@code
 * Network network = KitContainers.newNetwork();
 * LabServiceContainer downstream = LabServiceContainer.downstream(network).withDefaultLatency(Duration.ofMillis(500));
 * LabServiceContainer caller = LabServiceContainer.callerOf(downstream).withMaxConnectionsPerRoute(40);
 * }</pre>
 */
public class LabServiceContainer extends AbstractServiceContainer<LabServiceContainer> {

	/** The HTTP port inside the container. */
	public static final int PORT = 8080;

	/**
	 * Network alias of the downstream: callers reach it at
	 * {@code http://downstream:8080}.
	 */
	public static final String DOWNSTREAM_ALIAS = "downstream";

	/**
	 * Work requests the lab service is serving (a gauge it exposes beside Spring Boot's).
	 */
	public static final Gauge IN_FLIGHT = Gauge.of("lab.requests.in-flight");

	/**
	 * JVM flags of every lab container: a small heap collector, a quick JIT, small
	 * stacks.
	 */
	static final String JVM_DEFAULTS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k";

	private final String role;

	private LabServiceContainer(String role, Network network, JavaRuntime runtime) {
		super(LabServiceImage.of(runtime));
		this.role = role;
		withNetwork(network);
		withPort(PORT);
		withEnv("SPRING_PROFILES_ACTIVE", role);
		withJvmOptions(JVM_DEFAULTS);
		withName(role);
	}

	/**
	 * A downstream on {@code network}, reachable by callers as
	 * {@value #DOWNSTREAM_ALIAS}, on Java 21.
	 */
	public static LabServiceContainer downstream(Network network) {
		return downstream(network, DOWNSTREAM_ALIAS);
	}

	/**
	 * A downstream on {@code network}, reachable by callers as {@code alias} (and named
	 * so in logs), on Java 21: for a scenario with two downstreams on one network.
	 */
	public static LabServiceContainer downstream(Network network, String alias) {
		LabServiceContainer downstream = new LabServiceContainer("downstream", network, JavaRuntime.JAVA_21)
			.withNetworkAliases(alias);
		downstream.withName(alias);
		return downstream;
	}

	/**
	 * A caller of {@code downstream} on the same network, on Java 21, with Spring Boot's
	 * default HTTP pool.
	 */
	public static LabServiceContainer callerOf(LabServiceContainer downstream) {
		return caller(downstream.getNetwork()).withDownstreamUrl(downstream.url());
	}

	/**
	 * Where callers on its network reach this service:
	 * {@code http://<its network alias>:8080}.
	 */
	public String url() {
		List<String> aliases = getNetworkAliases();
		return "http://" + aliases.get(aliases.size() - 1) + ":" + PORT;
	}

	/**
	 * A caller on {@code network} with no downstream, e.g. for its database route
	 * ({@link #withMySql}).
	 */
	public static LabServiceContainer caller(Network network) {
		return new LabServiceContainer("caller", network, JavaRuntime.JAVA_21);
	}

	/**
	 * Caller: where it calls the downstream, e.g. {@code http://toxiproxy:8666} to go
	 * through a proxy.
	 */
	public LabServiceContainer withDownstreamUrl(String url) {
		return withEnv("LAB_CALLER_DOWNSTREAMURL", java.net.URI.create(url).toString());
	}

	/**
	 * Caller: another downstream, reached through the same client and pool with
	 * {@code ?via=name}; its own route (host:port) in the pool. {@code name}: letters and
	 * digits.
	 */
	public LabServiceContainer withNamedDownstream(String name, String url) {
		if (!name.matches("[a-z0-9]{1,30}")) {
			throw new IllegalArgumentException(
					"downstream name must be 1 to 30 lower-case letters or digits, was '" + name + "'");
		}
		return withEnv("LAB_CALLER_DOWNSTREAMS_" + name.toUpperCase(Locale.ROOT), java.net.URI.create(url).toString());
	}

	/**
	 * Caller: the {@code /db/sleep} route on {@code database} (which must be on this
	 * container's network), through Hikari with {@code poolSize} connections (1 to 1000,
	 * all opened at start-up) and {@code driver} on the loader path.
	 */
	public LabServiceContainer withMySql(JdbcDatabaseContainer<?> database, JdbcDriver driver, int poolSize) {
		between("poolSize", poolSize, 1, 1000);
		String host = database.getNetworkAliases().get(database.getNetworkAliases().size() - 1);
		return withEnv("SPRING_PROFILES_ACTIVE", this.role + ",db")
			.withEnv("SPRING_DATASOURCE_URL",
					"jdbc:mysql://" + host + ":3306/" + database.getDatabaseName()
							+ "?useSSL=false&allowPublicKeyRetrieval=true")
			.withEnv("SPRING_DATASOURCE_USERNAME", database.getUsername())
			.withEnv("SPRING_DATASOURCE_PASSWORD", database.getPassword())
			.withEnv("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", Integer.toString(poolSize))
			.withCopyFileToContainer(MountableFile.forHostPath(driver.jar()), "/app/lib/" + driver.jar().getFileName())
			// Hikari opens its pool at start-up: the database must answer first.
			.dependsOn(database);
	}

	/**
	 * Caller with a database: Hikari's {@code connectionTimeout}, 250 ms (Hikari's
	 * minimum) to 10 min.
	 */
	public LabServiceContainer withDbConnectionTimeout(Duration timeout) {
		between("dbConnectionTimeout", timeout, Duration.ofMillis(250), Duration.ofMinutes(10));
		return withEnv("SPRING_DATASOURCE_HIKARI_CONNECTIONTIMEOUT", Long.toString(timeout.toMillis()));
	}

	/**
	 * Carrier threads of the virtual-thread scheduler
	 * ({@code -Djdk.virtualThreadScheduler.parallelism}), 1 to 256.
	 */
	public LabServiceContainer withCarrierThreads(int carriers) {
		return withJvmOptions("-Djdk.virtualThreadScheduler.parallelism=" + between("carriers", carriers, 1, 256));
	}

	/**
	 * Runs the service on another Java runtime (the image is built for it once per JVM).
	 */
	public LabServiceContainer withJavaRuntime(JavaRuntime runtime) {
		setImage(LabServiceImage.of(runtime));
		return this;
	}

	/**
	 * Downstream: how long {@code /work/sleep} blocks when the request names no latency;
	 * 0 to 10 min.
	 */
	public LabServiceContainer withDefaultLatency(Duration latency) {
		between("latency", latency, Duration.ZERO, Duration.ofMinutes(10));
		return withEnv("LAB_DOWNSTREAM_LATENCY", latency.toMillis() + "ms");
	}

	/** Serve requests on virtual threads ({@code spring.threads.virtual.enabled}). */
	public LabServiceContainer withVirtualThreads(boolean enabled) {
		withSpringProperty("spring.threads.virtual.enabled", enabled);
		return this;
	}

	/**
	 * Tomcat's platform request threads ({@code server.tomcat.threads.max}), 1 to 10 000;
	 * Boot's default is 200.
	 */
	public LabServiceContainer withTomcatMaxThreads(int threads) {
		withSpringProperty("server.tomcat.threads.max", between("tomcatMaxThreads", threads, 1, 10_000));
		return this;
	}

	/**
	 * Caller: connections per route of the HTTP pool, 1 to 10 000; unset keeps HttpClient
	 * 5's 5.
	 */
	public LabServiceContainer withMaxConnectionsPerRoute(int connections) {
		return withEnv("LAB_CALLER_POOL_MAXPERROUTE",
				Integer.toString(between("maxConnectionsPerRoute", connections, 1, 10_000)));
	}

	/**
	 * Caller: connections over all routes, 1 to 10 000; unset keeps HttpClient 5's 25.
	 */
	public LabServiceContainer withMaxConnectionsTotal(int connections) {
		return withEnv("LAB_CALLER_POOL_MAXTOTAL",
				Integer.toString(between("maxConnectionsTotal", connections, 1, 10_000)));
	}

	/**
	 * Caller: a Resilience4j semaphore bulkhead of {@code maxConcurrentCalls} (1 to 10
	 * 000) around downstream calls; a call that finds no permit is rejected at once with
	 * 429 {@code bulkhead-full}.
	 */
	public LabServiceContainer withBulkhead(int maxConcurrentCalls) {
		return withEnv("LAB_CALLER_BULKHEAD_MAXCONCURRENTCALLS",
				Integer.toString(between("bulkhead maxConcurrentCalls", maxConcurrentCalls, 1, 10_000)));
	}

	/**
	 * Caller: the Reactor Netty pool of the WebClient route
	 * ({@code /call/webclient/sleep}): connections (1 to 10 000), acquisitions that may
	 * wait (1 to 100 000), and how long one may wait (1 ms to 10 min).
	 */
	public LabServiceContainer withWebClientPool(int maxConnections, int pendingAcquireMaxCount,
			Duration pendingAcquireTimeout) {
		between("webclient maxConnections", maxConnections, 1, 10_000);
		between("webclient pendingAcquireMaxCount", pendingAcquireMaxCount, 1, 100_000);
		between("webclient pendingAcquireTimeout", pendingAcquireTimeout, Duration.ofMillis(1), Duration.ofMinutes(10));
		return withEnv("LAB_CALLER_WEBCLIENT_MAXCONNECTIONS", Integer.toString(maxConnections))
			.withEnv("LAB_CALLER_WEBCLIENT_PENDINGACQUIREMAXCOUNT", Integer.toString(pendingAcquireMaxCount))
			.withEnv("LAB_CALLER_WEBCLIENT_PENDINGACQUIRETIMEOUT", pendingAcquireTimeout.toMillis() + "ms");
	}

	/**
	 * Caller: connect timeout ({@code spring.http.clients.connect-timeout}), 1 ms to 10
	 * min.
	 */
	public LabServiceContainer withConnectTimeout(Duration timeout) {
		between("connectTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(10));
		return withEnv("SPRING_HTTP_CLIENTS_CONNECTTIMEOUT", timeout.toMillis() + "ms");
	}

	/**
	 * Caller: read timeout ({@code spring.http.clients.read-timeout}), 1 ms to 10 min.
	 */
	public LabServiceContainer withReadTimeout(Duration timeout) {
		between("readTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(10));
		return withEnv("SPRING_HTTP_CLIENTS_READTIMEOUT", timeout.toMillis() + "ms");
	}

	/**
	 * Downstream: log one line per {@code /work/**} request through Logback, {@code SYNC}
	 * (the request's thread writes it) or {@code ASYNC} (an AsyncAppender's worker does,
	 * 8 KB per write), to a sink where each write costs {@code sinkLatency} (0 to 10 s).
	 * {@code GET /probe/request-log} reads lines logged and written.
	 */
	public LabServiceContainer withRequestLog(RequestLogAppender appender, Duration sinkLatency) {
		between("request log sinkLatency", sinkLatency, Duration.ZERO, Duration.ofSeconds(10));
		return withEnv("LAB_REQUESTLOG_APPENDER", appender.name().toLowerCase(Locale.ROOT))
			.withEnv("LAB_REQUESTLOG_SINKLATENCY", sinkLatency.toMillis() + "ms");
	}

	/** How the lab's request log reaches its sink ({@link #withRequestLog}). */
	public enum RequestLogAppender {

		/**
		 * Logback's OutputStreamAppender, flushing every line on the request's thread
		 * (Logback's default).
		 */
		SYNC,

		/**
		 * Logback's AsyncAppender (never discarding) in front of the same appender,
		 * flushing 8 KB at a time.
		 */
		ASYNC

	}

	/** "downstream" or "caller". */
	public String role() {
		return this.role;
	}

	/** The in-flight probe of this service. */
	public InFlightProbe inFlight() {
		return new InFlightProbe(uri(""));
	}

	/** {@code value}, or one line naming the knob and its range. */
	private static int between(String knob, int value, int min, int max) {
		if (value < min || value > max) {
			throw new IllegalArgumentException(knob + " must be between " + min + " and " + max + ", was " + value);
		}
		return value;
	}

	/** {@code value}, or one line naming the knob and its range. */
	private static Duration between(String knob, Duration value, Duration min, Duration max) {
		if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			throw new IllegalArgumentException(knob + " must be between " + min.toMillis() + " ms and " + max.toMillis()
					+ " ms, was " + ((value != null) ? value.toMillis() + " ms" : "not set"));
		}
		return value;
	}

}
