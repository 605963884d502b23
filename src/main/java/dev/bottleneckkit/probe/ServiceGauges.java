package dev.bottleneckkit.probe;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.JmxAgent;
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

	private final URI base;

	/** The service's JMX agent: the meters are read through it when it has the MBean. */
	private final JmxAgent agent;

	private final List<Gauge> gauges;

	private final Duration interval;

	/** Gauges also read between the rounds, alone, every {@link #oftenEvery}. */
	private final List<Gauge> often;

	private final Duration oftenEvery;

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

	/** Where the first round found the meters; null before, or when it found none. */
	private volatile String source;

	/** Whether the endpoint gave no answer in time, so that it is asked again. */
	private boolean unanswered;

	private ServiceGauges(URI base, JmxAgent agent, List<Gauge> gauges, Duration interval, List<Gauge> often,
			Duration oftenEvery) {
		this.base = base;
		this.agent = agent;
		this.gauges = gauges;
		this.interval = interval;
		this.often = often;
		this.oftenEvery = oftenEvery;
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service in {@code service}, once it
	 * has started: over JMX when its agent is on (the default), else over HTTP.
	 */
	public static ServiceGauges on(AbstractServiceContainer<?> service) {
		JmxAgent agent = service.jmxEnabled() ? JmxAgent.of(service).orElse(null) : null;
		return new ServiceGauges(service.uri(""), agent, Gauge.SPRING_BOOT_CAPS, DEFAULT_INTERVAL, List.of(),
				DEFAULT_INTERVAL);
	}

	/**
	 * Samples {@link Gauge#SPRING_BOOT_CAPS} of the service at {@code base} (e.g.
	 * {@code http://localhost:8080}).
	 */
	public static ServiceGauges at(URI base) {
		return new ServiceGauges(base, null, Gauge.SPRING_BOOT_CAPS, DEFAULT_INTERVAL, List.of(), DEFAULT_INTERVAL);
	}

	/** Samples these gauges instead. */
	public ServiceGauges gauges(Gauge... gauges) {
		return new ServiceGauges(this.base, this.agent, List.of(gauges), this.interval, this.often, this.oftenEvery);
	}

	/**
	 * Samples {@code more} beside the gauges it samples already: the meters of a resource
	 * only the team's service has.
	 */
	public ServiceGauges plus(Gauge... more) {
		return new ServiceGauges(this.base, this.agent,
				Stream.concat(this.gauges.stream(), Arrays.stream(more)).distinct().toList(), this.interval, this.often,
				this.oftenEvery);
	}

	/** Time between samples, 50 ms to 10 s (default 250 ms). */
	public ServiceGauges every(Duration interval) {
		return new ServiceGauges(this.base, this.agent, this.gauges,
				Knobs.between("interval", interval, Duration.ofMillis(50), Duration.ofSeconds(10)), this.often,
				this.oftenEvery);
	}

	/**
	 * Reads {@code gauges} (sampled already, or added) also between the rounds, every
	 * {@code interval} (10 ms up to the rounds' own), where a meter can be read alone off
	 * the request threads (over JMX); elsewhere they keep the rounds' pace. A gauge's
	 * time average is as precise as its samples are many: a pool of a few objects, each
	 * in use but for a few milliseconds of a request's cycle, read every 250 ms over a
	 * one-second window gives four samples, and one that falls in a gap reads it a
	 * quarter short.
	 */
	public ServiceGauges often(Duration interval, Gauge... gauges) {
		List<Gauge> often = List.of(gauges);
		return new ServiceGauges(this.base, this.agent,
				Stream.concat(this.gauges.stream(), often.stream()).distinct().toList(), this.interval, often,
				Knobs.between("interval", interval, Duration.ofMillis(10), this.interval));
	}

	/** Starts sampling in the background. */
	public ServiceGauges start() {
		long started = System.nanoTime();
		this.sampler = Thread.ofVirtual().name("service-gauges").start(() -> {
			try (Meters meters = open()) {
				this.blind = checkEndpoint(meters);
				for (long round = 1;; round++) {
					if (this.source == null && this.unanswered) {
						// No answer in time is not no endpoint: asked again each round.
						this.blind = checkEndpoint(meters);
					}
					if (this.source != null) {
						sampleRound(meters, Duration.ofNanos(System.nanoTime() - started));
					}
					// Fixed rate: the next round starts on its tick, however long this
					// one took.
					long nextRound = started + round * this.interval.toNanos();
					if (sampleOftenUntil(meters, started, nextRound)) {
						break;
					}
					if (this.stopped.await(Math.max(0, nextRound - System.nanoTime()), TimeUnit.NANOSECONDS)) {
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
	 * Reads the gauges sampled {@link #often} alone on their ticks until
	 * {@code nextRound}, where the meters allow it: true when sampling was stopped.
	 */
	private boolean sampleOftenUntil(Meters meters, long started, long nextRound) throws InterruptedException {
		if (this.often.isEmpty() || this.source == null || !meters.readsOneMeterAlone()) {
			return false;
		}
		for (long tick = System.nanoTime() + this.oftenEvery.toNanos(); tick < nextRound; tick = Math
			.max(tick + this.oftenEvery.toNanos(), System.nanoTime())) {
			if (this.stopped.await(Math.max(0, tick - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return true;
			}
			Duration at = Duration.ofNanos(System.nanoTime() - started);
			for (Gauge gauge : this.often) {
				Long missing = this.missingSince.get(gauge.label());
				if (missing == null) {
					sample(meters, List.of(gauge), at);
				}
			}
		}
		return false;
	}

	private void sampleRound(Meters meters, Duration at) throws InterruptedException {
		try {
			meters.beginRound();
		}
		catch (java.io.IOException ex) {
			log.debug("meters of {} not read: {}", meters, ex.toString());
			return;
		}
		// Gauges of one meter (a timer's count and total time) come from one answer, so
		// that a use that ends between two reads cannot count in one statistic and not in
		// the other.
		Map<String, List<Gauge>> byMeter = new LinkedHashMap<>();
		for (Gauge gauge : this.gauges) {
			Long missing = this.missingSince.get(gauge.label());
			if (missing == null || System.nanoTime() - missing > RECHECK_MISSING_NANOS) {
				byMeter.computeIfAbsent(gauge.meter() + gauge.tags(), (key) -> new ArrayList<>()).add(gauge);
			}
		}
		if (meters.concurrent()) {
			// Over HTTP a round reads every meter at once, so that it takes the time of
			// one request, not one per meter.
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
	 * Where the meters were read ({@code /actuator/prometheus (Prometheus text)},
	 * Actuator's metrics MBean over JMX): empty before sampling has begun and when no
	 * endpoint answered ({@link #blind} says what each answered).
	 */
	public Optional<String> source() {
		return Optional.ofNullable(this.source);
	}

	/**
	 * Whether the service answers Actuator's metrics or Prometheus text, and has Tomcat's
	 * thread meters when it runs Tomcat: null when all is there, else the line to show.
	 */
	private String checkEndpoint(Meters meters) throws InterruptedException {
		try {
			if (!meters.found()) {
				return "meters: " + meters.notThere() + " — expose \"metrics\" or \"prometheus\""
						+ " (management.endpoints.web.exposure.include), or Hikari, Tomcat and pool meters cannot be read";
			}
		}
		catch (java.io.IOException | RuntimeException ex) {
			this.unanswered = true;
			return "meters: no answer at " + meters + " (" + ex + ")";
		}
		this.unanswered = false;
		this.source = meters.where();
		if (meters.has("tomcat.sessions.created") && !meters.has("tomcat.threads.busy")
				&& this.gauges.contains(Gauge.TOMCAT_BUSY)) {
			return "Tomcat's thread meters: absent from " + meters.where() + " — set"
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
			if (!meters.found()) {
				return OptionalDouble.empty();
			}
			Meters.Reading reading = answer(meters, gauge);
			return (reading == null) ? OptionalDouble.empty() : reading.statistic(gauge);
		}
		catch (java.io.IOException | RuntimeException ex) {
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
			Meters.Reading reading = answer(meters, meter.get(0));
			for (Gauge gauge : meter) {
				if (reading == null) {
					continue;
				}
				OptionalDouble value = reading.statistic(gauge);
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
	private Meters.Reading answer(Meters meters, Gauge gauge) throws java.io.IOException, InterruptedException {
		Meters.Reading answer = meters.metric(gauge);
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

	private Meters open() {
		return Meters.open(this.base, this.agent);
	}

}
