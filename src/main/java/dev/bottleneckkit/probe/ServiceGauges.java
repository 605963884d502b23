package dev.bottleneckkit.probe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Knobs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the gauges that cap a Spring Boot service (Tomcat threads, HTTP client and
 * database pools, JVM threads) through its Actuator metrics endpoint, as a time series
 * beside the load. Works on any Spring Boot service that exposes
 * {@code /actuator/metrics}; gauges it does not have are skipped (and asked for again
 * each second, since some appear only when their pool is first used).
 *
 * <p>
 * A service container the kit started ({@link #on}) is read over JMX, through the same
 * endpoint's MBean ({@code org.springframework.boot:type=Endpoint,name=Metrics}, which
 * the container exposes): the JVM's RMI threads answer, not the request threads the
 * gauges count. Over HTTP a read needs one of those threads: where all are busy it waits
 * behind the load (seconds, with Tomcat's unfair queue), and once served it has taken a
 * thread from the load, so the pool behind it reads one short and its waiters go unseen.
 * HTTP stays the way for {@link #at} and for a service without the MBean.
 *
 * <pre>{@code
 * ServiceGauges gauges = ServiceGauges.on(caller).start();   // after caller.start()
 * LoadResult result = load.run(caller.uri("/call/sleep"));
 * GaugeTimeline timeline = gauges.stop();
 * assertThat(timeline.max(Gauge.HTTP_POOL_PENDING)).hasValue(35);
 * }</pre>
 */
public final class ServiceGauges {

	private static final Logger log = LoggerFactory.getLogger(ServiceGauges.class);

	/** Time between samples unless {@link #every} says otherwise. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(250);

	/**
	 * A gauge the service does not have (yet) is asked for again after this long, not
	 * every round.
	 */
	private static final long RECHECK_MISSING_NANOS = Duration.ofSeconds(1).toNanos();

	/** The MBean of Actuator's metrics endpoint, in any context. */
	static final String METRICS_MBEAN = "org.springframework.boot:type=Endpoint,name=Metrics,*";

	private final URI base;

	/** The service's JMX agent: the meters are read through it when it has the MBean. */
	private final JmxAgent agent;

	private final List<Gauge> gauges;

	private final Duration interval;

	private final Map<String, List<GaugeTimeline.Sample>> series = new ConcurrentHashMap<>();

	/**
	 * When each gauge was last found missing: meters such as Reactor Netty's or Hikari's
	 * appear on first use.
	 */
	private final Map<String, Long> missingSince = new ConcurrentHashMap<>();

	private final CountDownLatch stopped = new CountDownLatch(1);

	private Thread sampler;

	/** What the first round found it could not read, in one line; null when it could. */
	private volatile String blind;

	private ServiceGauges(URI base, JmxAgent agent, List<Gauge> gauges, Duration interval) {
		this.base = base;
		this.agent = agent;
		this.gauges = gauges;
		this.interval = interval;
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service in {@code service}, once it
	 * has started: over JMX when its agent is on (the default), else over HTTP.
	 */
	public static ServiceGauges on(AbstractServiceContainer<?> service) {
		JmxAgent agent = service.jmxEnabled() ? JmxAgent.of(service).orElse(null) : null;
		return new ServiceGauges(service.uri(""), agent, Gauge.SPRING_BOOT_CAPS, DEFAULT_INTERVAL);
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service at {@code base} (e.g.
	 * {@code http://localhost:8080}).
	 */
	public static ServiceGauges at(URI base) {
		return new ServiceGauges(base, null, Gauge.SPRING_BOOT_CAPS, DEFAULT_INTERVAL);
	}

	/** Samples these gauges instead. */
	public ServiceGauges gauges(Gauge... gauges) {
		return new ServiceGauges(this.base, this.agent, List.of(gauges), this.interval);
	}

	/** Time between samples, 50 ms to 10 s (default 250 ms). */
	public ServiceGauges every(Duration interval) {
		return new ServiceGauges(this.base, this.agent, this.gauges,
				Knobs.between("interval", interval, Duration.ofMillis(50), Duration.ofSeconds(10)));
	}

	/** Starts sampling in the background. */
	public ServiceGauges start() {
		long started = System.nanoTime();
		this.sampler = Thread.ofVirtual().name("service-gauges").start(() -> {
			try (Meters meters = open()) {
				this.blind = checkEndpoint(meters);
				for (long round = 1;; round++) {
					Duration at = Duration.ofNanos(System.nanoTime() - started);
					// Gauges of one meter (a timer's count and total time) come from one
					// answer, so that a use that ends between two reads cannot count in
					// one statistic and not in the other.
					Map<String, List<Gauge>> byMeter = new LinkedHashMap<>();
					for (Gauge gauge : this.gauges) {
						Long missing = this.missingSince.get(gauge.label());
						if (missing == null || System.nanoTime() - missing > RECHECK_MISSING_NANOS) {
							byMeter.computeIfAbsent(gauge.meter() + gauge.tags(), (key) -> new ArrayList<>())
								.add(gauge);
						}
					}
					if (meters.concurrent()) {
						// Over HTTP a round reads every meter at once, so that it takes
						// the time of one request, not one per meter.
						List<Thread> readers = new ArrayList<>();
						for (List<Gauge> meter : byMeter.values()) {
							readers.add(Thread.ofVirtual().start(() -> sample(meters, meter, at)));
						}
						for (Thread reader : readers) {
							reader.join();
						}
					}
					else {
						for (List<Gauge> meter : byMeter.values()) {
							sample(meters, meter, at);
						}
					}
					// Fixed rate: the next round starts on its tick, however long this
					// one took.
					long untilNextTick = started + round * this.interval.toNanos() - System.nanoTime();
					if (this.stopped.await(Math.max(0, untilNextTick), TimeUnit.NANOSECONDS)) {
						break;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		return this;
	}

	/**
	 * Takes one last sample, stops, and returns the series of the gauges the service
	 * exposed.
	 */
	public GaugeTimeline stop() {
		this.stopped.countDown();
		try {
			this.sampler.join(Duration.ofSeconds(10));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		Map<String, List<GaugeTimeline.Sample>> ordered = new LinkedHashMap<>();
		for (Gauge gauge : this.gauges) {
			List<GaugeTimeline.Sample> samples = this.series.get(gauge.label());
			if (samples != null) {
				ordered.put(gauge.label(), List.copyOf(samples));
			}
		}
		return new GaugeTimeline(ordered);
	}

	/**
	 * What these gauges could not read, in one line that names what to change: Actuator's
	 * metrics endpoint not exposed, Tomcat's thread meters off. Known once sampling has
	 * begun; empty when every gauge could be read.
	 */
	public Optional<String> blind() {
		return Optional.ofNullable(this.blind);
	}

	/**
	 * Whether the service answers {@code /actuator/metrics}, and has Tomcat's thread
	 * meters when it runs Tomcat: null when all is there, else the line to show.
	 */
	private String checkEndpoint(Meters meters) throws InterruptedException {
		List<String> names;
		try {
			names = meters.names();
		}
		catch (java.io.IOException | RuntimeException ex) {
			return "Actuator metrics: no answer at " + meters + " (" + ex + ")";
		}
		if (names == null) {
			return "Actuator metrics: " + meters.notThere() + " — expose \"metrics\""
					+ " (management.endpoints.web.exposure.include), or Hikari, Tomcat and pool meters cannot be read";
		}
		if (names.contains("tomcat.sessions.created") && !names.contains("tomcat.threads.busy")
				&& this.gauges.contains(Gauge.TOMCAT_BUSY)) {
			return "Tomcat's thread meters: absent from /actuator/metrics — set"
					+ " server.tomcat.mbeanregistry.enabled=true, or Tomcat's threads are read from thread dumps only";
		}
		return null;
	}

	/**
	 * Reads {@code gauge} once, now: empty when the service does not expose it (yet). For
	 * waiting on a state before the load, e.g. until Hikari has opened every connection.
	 */
	public OptionalDouble read(Gauge gauge) {
		try (Meters meters = open()) {
			Object answer = answer(meters, gauge);
			return (answer == null) ? OptionalDouble.empty() : statistic(answer, gauge);
		}
		catch (java.io.IOException ex) {
			log.debug("gauge {} of {} not read: {}", gauge.meter(), this.base, ex.toString());
			return OptionalDouble.empty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return OptionalDouble.empty();
		}
	}

	private void sample(Meters meters, List<Gauge> meter, Duration at) {
		try {
			Object answer = answer(meters, meter.get(0));
			for (Gauge gauge : meter) {
				if (answer == null) {
					continue;
				}
				OptionalDouble value = statistic(answer, gauge);
				// A count below zero is a meter saying it has no reading: Tomcat's busy
				// threads read -1 when requests run on virtual threads.
				if (value.isPresent() && value.getAsDouble() >= 0) {
					this.series
						.computeIfAbsent(gauge.label(),
								(label) -> java.util.Collections.synchronizedList(new ArrayList<>()))
						.add(new GaugeTimeline.Sample(at, value.getAsDouble()));
				}
			}
		}
		catch (java.io.IOException ex) {
			log.debug("gauge {} of {} not read: {}", meter.get(0).meter(), meters, ex.toString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The endpoint's answer for {@code gauge}'s meter, null when the service does not
	 * expose it (yet).
	 */
	private Object answer(Meters meters, Gauge gauge) throws java.io.IOException, InterruptedException {
		Object answer = meters.metric(gauge);
		for (Gauge same : this.gauges) {
			if (same.meter().equals(gauge.meter()) && same.tags().equals(gauge.tags())) {
				if (answer == null) {
					this.missingSince.put(same.label(), System.nanoTime());
				}
				else {
					this.missingSince.remove(same.label());
				}
			}
		}
		if (answer == null) {
			this.missingSince.put(gauge.label(), System.nanoTime());
		}
		else {
			this.missingSince.remove(gauge.label());
		}
		return answer;
	}

	/**
	 * The meters over JMX when the service's agent is on and has the endpoint's MBean,
	 * else over HTTP.
	 */
	private Meters open() {
		if (this.agent != null) {
			try {
				return JmxMeters.open(this.agent);
			}
			catch (java.io.IOException | RuntimeException ex) {
				log.info(
						"Actuator metrics of {} not over JMX ({}): read over HTTP, where a read takes a request thread",
						this.agent.name(), ex.toString());
			}
		}
		return new HttpMeters(this.base);
	}

	private static OptionalDouble statistic(Object answer, Gauge gauge) {
		for (Object measurement : Json.array(answer, "measurements")) {
			if (gauge.statistic().equals(Json.string(measurement, "", "statistic"))) {
				return OptionalDouble.of(Json.number(measurement, "value"));
			}
		}
		return OptionalDouble.empty();
	}

	/**
	 * Where a service's meters are read: Actuator's metrics endpoint over HTTP or JMX.
	 */
	private interface Meters extends AutoCloseable {

		/** The meters' names; null when the endpoint is not there. */
		List<String> names() throws java.io.IOException, InterruptedException;

		/**
		 * The endpoint's answer for {@code gauge}'s meter (name, measurements), null when
		 * the service has no such meter (yet).
		 */
		Object metric(Gauge gauge) throws java.io.IOException, InterruptedException;

		/** Why {@link #names} found no endpoint, e.g. "404 at /actuator/metrics". */
		String notThere();

		/** Whether a round reads its meters at once. */
		boolean concurrent();

		@Override
		void close();

	}

	/** {@code GET /actuator/metrics/{name}}, on the service's own port. */
	private static final class HttpMeters implements Meters {

		private final URI base;

		private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

		/** What {@code /actuator/metrics} answered when it was not there. */
		private int status;

		HttpMeters(URI base) {
			this.base = base;
		}

		@Override
		public List<String> names() throws java.io.IOException, InterruptedException {
			HttpResponse<String> response = get(this.base + "/actuator/metrics");
			if (response.statusCode() != 200) {
				this.status = response.statusCode();
				return null;
			}
			List<String> names = new ArrayList<>();
			for (Object name : Json.array(Json.parse(response.body()), "names")) {
				names.add(String.valueOf(name));
			}
			return names;
		}

		@Override
		public Object metric(Gauge gauge) throws java.io.IOException, InterruptedException {
			StringBuilder uri = new StringBuilder(this.base + "/actuator/metrics/" + gauge.meter());
			for (int i = 0; i < gauge.tags().size(); i++) {
				uri.append(i == 0 ? '?' : '&').append("tag=").append(gauge.tags().get(i));
			}
			HttpResponse<String> response = get(uri.toString());
			return (response.statusCode() == 200) ? Json.parse(response.body()) : null;
		}

		private HttpResponse<String> get(String uri) throws java.io.IOException, InterruptedException {
			return this.http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(2)).build(),
					HttpResponse.BodyHandlers.ofString());
		}

		@Override
		public String notThere() {
			return this.status + " at /actuator/metrics";
		}

		@Override
		public boolean concurrent() {
			return true;
		}

		@Override
		public void close() {
			this.http.close();
		}

		@Override
		public String toString() {
			return this.base + "/actuator/metrics";
		}

	}

	/**
	 * The endpoint's MBean, {@code metric(requiredMetricName, tag)} and
	 * {@code listNames()}: answered by the JVM's RMI threads, a round in a few
	 * milliseconds, one call at a time.
	 */
	private static final class JmxMeters implements Meters {

		private static final String[] METRIC_SIGNATURE = { String.class.getName(), List.class.getName() };

		private final JmxAgent agent;

		private final JMXConnector connector;

		private final MBeanServerConnection connection;

		private final ObjectName endpoint;

		private JmxMeters(JmxAgent agent, JMXConnector connector, MBeanServerConnection connection,
				ObjectName endpoint) {
			this.agent = agent;
			this.connector = connector;
			this.connection = connection;
			this.endpoint = endpoint;
		}

		/** Connected to the endpoint's MBean; fails when the service has none. */
		static JmxMeters open(JmxAgent agent) throws java.io.IOException {
			JMXConnector connector = agent.connect();
			try {
				MBeanServerConnection connection = connector.getMBeanServerConnection();
				Set<ObjectName> found = connection.queryNames(new ObjectName(METRICS_MBEAN), null);
				if (found.isEmpty()) {
					throw new java.io.IOException("no MBean " + METRICS_MBEAN
							+ " (spring.jmx.enabled, management.endpoints.jmx.exposure.include=metrics)");
				}
				return new JmxMeters(agent, connector, connection, found.iterator().next());
			}
			catch (java.io.IOException | MalformedObjectNameException | RuntimeException ex) {
				JmxAgent.disconnect(connector, agent.name());
				throw (ex instanceof java.io.IOException io) ? io : new java.io.IOException(ex);
			}
		}

		@Override
		public List<String> names() throws java.io.IOException {
			List<String> names = new ArrayList<>();
			for (Object name : Json.array(invoke("listNames", new Object[0], new String[0]), "names")) {
				names.add(String.valueOf(name));
			}
			return names;
		}

		@Override
		public Object metric(Gauge gauge) throws java.io.IOException {
			List<String> tags = gauge.tags().isEmpty() ? null : new ArrayList<>(gauge.tags());
			return invoke("metric", new Object[] { gauge.meter(), tags }, METRIC_SIGNATURE);
		}

		private Object invoke(String operation, Object[] parameters, String[] signature) throws java.io.IOException {
			try {
				return this.connection.invoke(this.endpoint, operation, parameters, signature);
			}
			catch (javax.management.JMException ex) {
				throw new java.io.IOException(ex);
			}
		}

		@Override
		public String notThere() {
			return "no answer from " + this.endpoint + " over JMX";
		}

		@Override
		public boolean concurrent() {
			return false;
		}

		@Override
		public void close() {
			JmxAgent.disconnect(this.connector, this.agent.name());
		}

		@Override
		public String toString() {
			return this.endpoint + " over JMX (" + this.agent + ")";
		}

	}

}
