package dev.bottleneckkit.probe;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Json;

/**
 * Where a service's Micrometer meters are read: Actuator's metrics endpoint over JMX
 * (answered by the JVM's RMI threads, not the request threads the gauges count), else
 * over HTTP as Actuator's JSON ({@code /actuator/metrics}), else as the Prometheus text
 * every Micrometer registry speaks ({@code /actuator/prometheus}, Quarkus'
 * {@code /q/metrics}, Micronaut's and Helidon's {@code /metrics}, {@code /prometheus}),
 * the first that answers.
 */
sealed interface Meters extends AutoCloseable permits Meters.Http, Meters.Jmx {

	/** The paths where a service may serve Prometheus text, in the order tried. */
	List<String> PROMETHEUS_PATHS = List.of("/actuator/prometheus", "/q/metrics", "/metrics", "/prometheus");

	/**
	 * Finds the endpoint and lists its meters: false when no endpoint answered
	 * ({@link #notThere} says what each answered).
	 */
	boolean found() throws IOException, InterruptedException;

	/** Whether the endpoint {@link #found} lists the Micrometer meter {@code meter}. */
	boolean has(String meter);

	/**
	 * Reads what a round of samples needs at once, before its {@link #metric} calls: one
	 * scrape for Prometheus text, nothing for an endpoint that answers per meter.
	 */
	default void beginRound() throws IOException, InterruptedException {
	}

	/**
	 * {@code gauge}'s meter (name and tags), null when the service has no such meter
	 * (yet): its statistics, all from one answer.
	 */
	Reading metric(Gauge gauge) throws IOException, InterruptedException;

	/** What each endpoint answered when none was {@link #found}. */
	String notThere();

	/** Where the meters are read, for a person: the path or the MBean. */
	String where();

	/** Whether a round reads its meters at once. */
	boolean concurrent();

	/**
	 * Whether one meter can be read alone, off the request threads, for the price of one
	 * small answer: over JMX, and not as Prometheus text (a whole scrape) nor over HTTP
	 * (a request thread taken from the load it measures).
	 */
	default boolean readsOneMeterAlone() {
		return false;
	}

	@Override
	void close();

	/**
	 * Over JMX when the service's agent is on and has Actuator's metrics MBean, else over
	 * HTTP at {@code base}.
	 */
	static Meters open(URI base, JmxAgent agent) {
		if (agent != null) {
			try {
				return Jmx.open(agent);
			}
			catch (IOException | RuntimeException ex) {
				org.slf4j.LoggerFactory.getLogger(Meters.class)
					.info("Actuator metrics of {} not over JMX ({}): read over HTTP, where a read takes a request thread",
							agent.name(), ex.toString());
			}
		}
		return new Http(base);
	}

	/** One meter's statistics, as one answer gave them. */
	@FunctionalInterface
	public interface Reading {

		/** {@code gauge}'s statistic ({@code VALUE}, {@code COUNT}, ...), if there. */
		OptionalDouble statistic(Gauge gauge);

		/** The statistics of an Actuator answer, {@code {"measurements": [...]}}. */
		static Reading of(Object answer) {
			return (gauge) -> {
				for (Object measurement : Json.array(answer, "measurements")) {
					if (gauge.statistic().equals(Json.string(measurement, "", "statistic"))) {
						return OptionalDouble.of(Json.number(measurement, "value"));
					}
				}
				return OptionalDouble.empty();
			};
		}

	}

	/**
	 * Over HTTP, on the service's own port: {@code GET /actuator/metrics/{name}} where
	 * Actuator's JSON answers, else one scrape of Prometheus text per round.
	 */
	final class Http implements Meters {

		private final URI base;

		private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

		/** The Prometheus path found; null while the JSON endpoint is read. */
		private String prometheus;

		private PrometheusText scrape;

		/**
		 * Whether {@link #scrape} is the one {@link #found} took and no round used yet.
		 */
		private boolean fresh;

		private final Set<String> names = new HashSet<>();

		/** What each endpoint answered when none was there. */
		private final List<String> answered = new ArrayList<>();

		Http(URI base) {
			this.base = base;
		}

		@Override
		public boolean found() throws IOException, InterruptedException {
			this.answered.clear();
			HttpResponse<String> response = get("/actuator/metrics");
			if (response.statusCode() == 200) {
				for (Object name : Json.array(Json.parse(response.body()), "names")) {
					this.names.add(String.valueOf(name));
				}
				return true;
			}
			this.answered.add(response.statusCode() + " at /actuator/metrics");
			for (String path : PROMETHEUS_PATHS) {
				HttpResponse<String> text = get(path);
				PrometheusText scrape = (text.statusCode() == 200) ? PrometheusText.parse(text.body()) : null;
				if (scrape != null && scrape.size() > 0) {
					this.prometheus = path;
					this.scrape = scrape;
					this.fresh = true;
					return true;
				}
				this.answered.add(text.statusCode() + ((scrape != null) ? " with no series" : "") + " at " + path);
			}
			return false;
		}

		@Override
		public boolean has(String meter) {
			return (this.prometheus != null) ? this.scrape.has(meter) : this.names.contains(meter);
		}

		@Override
		public void beginRound() throws IOException, InterruptedException {
			if (this.prometheus != null && !this.fresh) {
				HttpResponse<String> text = get(this.prometheus);
				this.scrape = (text.statusCode() == 200) ? PrometheusText.parse(text.body()) : null;
			}
			this.fresh = false;
		}

		@Override
		public Reading metric(Gauge gauge) throws IOException, InterruptedException {
			if (this.prometheus != null) {
				PrometheusText scrape = this.scrape;
				return (scrape != null && scrape.value(gauge).isPresent()) ? scrape::value : null;
			}
			StringBuilder uri = new StringBuilder("/actuator/metrics/" + gauge.meter());
			for (int i = 0; i < gauge.tags().size(); i++) {
				uri.append(i == 0 ? '?' : '&').append("tag=").append(gauge.tags().get(i));
			}
			HttpResponse<String> response = get(uri.toString());
			return (response.statusCode() == 200) ? Reading.of(Json.parse(response.body())) : null;
		}

		/**
		 * A read waits for a request thread behind the load: seconds where every thread
		 * is busy (Tomcat's queue is not first come, first served). A scrape, a whole
		 * round, is given five before it counts as no answer; a JSON meter, one of a
		 * round's many, two.
		 */
		private HttpResponse<String> get(String path) throws IOException, InterruptedException {
			Duration timeout = path.startsWith("/actuator/metrics/") ? Duration.ofSeconds(2) : Duration.ofSeconds(5);
			return this.http.send(HttpRequest.newBuilder(URI.create(this.base + path))
				.header("Accept", "text/plain;version=0.0.4, application/json;q=0.9, */*;q=0.5")
				.timeout(timeout)
				.build(), HttpResponse.BodyHandlers.ofString());
		}

		@Override
		public String notThere() {
			return String.join(", ", this.answered);
		}

		@Override
		public String where() {
			return (this.prometheus != null) ? this.prometheus + " (Prometheus text)" : "/actuator/metrics";
		}

		@Override
		public boolean concurrent() {
			// Actuator's JSON answers per meter: a round reads them at once, so that it
			// takes the time of one request. A scrape is one request already.
			return this.prometheus == null;
		}

		@Override
		public void close() {
			this.http.close();
		}

		@Override
		public String toString() {
			return this.base + where();
		}

	}

	/**
	 * Actuator's metrics endpoint MBean, {@code metric(requiredMetricName, tag)} and
	 * {@code listNames()}: answered by the JVM's RMI threads, a round in a few
	 * milliseconds, one call at a time.
	 */
	final class Jmx implements Meters {

		/** The MBean of Actuator's metrics endpoint, in any context. */
		static final String METRICS_MBEAN = "org.springframework.boot:type=Endpoint,name=Metrics,*";

		private static final String[] METRIC_SIGNATURE = { String.class.getName(), List.class.getName() };

		private final JmxAgent agent;

		private final JMXConnector connector;

		private final MBeanServerConnection connection;

		private final ObjectName endpoint;

		private final Set<String> names = new HashSet<>();

		private Jmx(JmxAgent agent, JMXConnector connector, MBeanServerConnection connection, ObjectName endpoint) {
			this.agent = agent;
			this.connector = connector;
			this.connection = connection;
			this.endpoint = endpoint;
		}

		/** Connected to the endpoint's MBean; fails when the service has none. */
		static Jmx open(JmxAgent agent) throws IOException {
			JMXConnector connector = agent.connect();
			try {
				MBeanServerConnection connection = connector.getMBeanServerConnection();
				Set<ObjectName> found = connection.queryNames(new ObjectName(METRICS_MBEAN), null);
				if (found.isEmpty()) {
					throw new IOException("no MBean " + METRICS_MBEAN
							+ " (spring.jmx.enabled, management.endpoints.jmx.exposure.include=metrics)");
				}
				return new Jmx(agent, connector, connection, found.iterator().next());
			}
			catch (IOException | MalformedObjectNameException | RuntimeException ex) {
				JmxAgent.disconnect(connector, agent.name());
				throw (ex instanceof IOException io) ? io : new IOException(ex);
			}
		}

		@Override
		public boolean found() throws IOException {
			for (Object name : Json.array(invoke("listNames", new Object[0], new String[0]), "names")) {
				this.names.add(String.valueOf(name));
			}
			return true;
		}

		@Override
		public boolean has(String meter) {
			return this.names.contains(meter);
		}

		@Override
		public Reading metric(Gauge gauge) throws IOException {
			List<String> tags = gauge.tags().isEmpty() ? null : new ArrayList<>(gauge.tags());
			Object answer = invoke("metric", new Object[] { gauge.meter(), tags }, METRIC_SIGNATURE);
			return (answer != null) ? Reading.of(answer) : null;
		}

		private Object invoke(String operation, Object[] parameters, String[] signature) throws IOException {
			try {
				return this.connection.invoke(this.endpoint, operation, parameters, signature);
			}
			catch (javax.management.JMException ex) {
				throw new IOException(ex);
			}
		}

		@Override
		public String notThere() {
			return "no answer from " + this.endpoint + " over JMX";
		}

		@Override
		public String where() {
			return "Actuator's metrics MBean over JMX";
		}

		@Override
		public boolean readsOneMeterAlone() {
			return true;
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
