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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.bottleneckkit.containers.AbstractServiceContainer;
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

	private final URI base;

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

	private ServiceGauges(URI base, List<Gauge> gauges, Duration interval) {
		this.base = base;
		this.gauges = gauges;
		this.interval = interval;
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service in {@code service}, once it
	 * has started.
	 */
	public static ServiceGauges on(AbstractServiceContainer<?> service) {
		return at(service.uri(""));
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service at {@code base} (e.g.
	 * {@code http://localhost:8080}).
	 */
	public static ServiceGauges at(URI base) {
		return new ServiceGauges(base, Gauge.SPRING_BOOT_CAPS, DEFAULT_INTERVAL);
	}

	/** Samples these gauges instead. */
	public ServiceGauges gauges(Gauge... gauges) {
		return new ServiceGauges(this.base, List.of(gauges), this.interval);
	}

	/** Time between samples, 50 ms to 10 s (default 250 ms). */
	public ServiceGauges every(Duration interval) {
		return new ServiceGauges(this.base, this.gauges,
				Knobs.between("interval", interval, Duration.ofMillis(50), Duration.ofSeconds(10)));
	}

	/** Starts sampling in the background. */
	public ServiceGauges start() {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		long started = System.nanoTime();
		this.sampler = Thread.ofVirtual().name("service-gauges").start(() -> {
			try (http) {
				this.blind = checkEndpoint(http);
				for (long round = 1;; round++) {
					// One round reads every gauge at once, so a round takes one request,
					// not one per gauge.
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
					List<Thread> readers = new ArrayList<>();
					for (List<Gauge> meter : byMeter.values()) {
						readers.add(Thread.ofVirtual().start(() -> sample(http, meter, at)));
					}
					for (Thread reader : readers) {
						reader.join();
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
	private String checkEndpoint(HttpClient http) throws InterruptedException {
		String where = this.base + "/actuator/metrics";
		try {
			HttpResponse<String> response = http.send(
					HttpRequest.newBuilder(URI.create(where)).timeout(Duration.ofSeconds(2)).build(),
					HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				return "Actuator metrics: " + response.statusCode() + " at /actuator/metrics — expose \"metrics\""
						+ " (management.endpoints.web.exposure.include), or Hikari, Tomcat and pool meters cannot be read";
			}
			List<String> names = new ArrayList<>();
			for (Object name : Json.array(Json.parse(response.body()), "names")) {
				names.add(String.valueOf(name));
			}
			if (names.contains("tomcat.sessions.created") && !names.contains("tomcat.threads.busy")
					&& this.gauges.contains(Gauge.TOMCAT_BUSY)) {
				return "Tomcat's thread meters: absent from /actuator/metrics — set"
						+ " server.tomcat.mbeanregistry.enabled=true, or Tomcat's threads are read from thread dumps only";
			}
			return null;
		}
		catch (java.io.IOException | RuntimeException ex) {
			return "Actuator metrics: no answer at " + where + " (" + ex + ")";
		}
	}

	/**
	 * Reads {@code gauge} once, now: empty when the service does not expose it (yet). For
	 * waiting on a state before the load, e.g. until Hikari has opened every connection.
	 */
	public OptionalDouble read(Gauge gauge) {
		try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
			return fetch(http, gauge);
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

	private void sample(HttpClient http, List<Gauge> meter, Duration at) {
		try {
			Object answer = answer(http, meter.get(0));
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
			log.debug("gauge {} of {} not read: {}", meter.get(0).meter(), this.base, ex.toString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private OptionalDouble fetch(HttpClient http, Gauge gauge) throws java.io.IOException, InterruptedException {
		Object answer = answer(http, gauge);
		return (answer == null) ? OptionalDouble.empty() : statistic(answer, gauge);
	}

	/**
	 * The Actuator's answer for {@code gauge}'s meter, null when the service does not
	 * expose it (yet).
	 */
	private Object answer(HttpClient http, Gauge gauge) throws java.io.IOException, InterruptedException {
		StringBuilder uri = new StringBuilder(this.base + "/actuator/metrics/" + gauge.meter());
		for (int i = 0; i < gauge.tags().size(); i++) {
			uri.append(i == 0 ? '?' : '&').append("tag=").append(gauge.tags().get(i));
		}
		HttpResponse<String> response = http.send(
				HttpRequest.newBuilder(URI.create(uri.toString())).timeout(Duration.ofSeconds(2)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() == 404) {
			for (Gauge same : this.gauges) {
				if (same.meter().equals(gauge.meter()) && same.tags().equals(gauge.tags())) {
					this.missingSince.put(same.label(), System.nanoTime());
				}
			}
			this.missingSince.put(gauge.label(), System.nanoTime());
			return null;
		}
		if (response.statusCode() != 200) {
			return null;
		}
		for (Gauge same : this.gauges) {
			if (same.meter().equals(gauge.meter()) && same.tags().equals(gauge.tags())) {
				this.missingSince.remove(same.label());
			}
		}
		this.missingSince.remove(gauge.label());
		return Json.parse(response.body());
	}

	private static OptionalDouble statistic(Object answer, Gauge gauge) {
		for (Object measurement : Json.array(answer, "measurements")) {
			if (gauge.statistic().equals(Json.string(measurement, "", "statistic"))) {
				return OptionalDouble.of(Json.number(measurement, "value"));
			}
		}
		return OptionalDouble.empty();
	}

}
