package dev.bottleneckkit.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.internal.KitClasses;
import dev.bottleneckkit.internal.Knobs;

/**
 * A stand-in for your service's downstream: an HTTP service whose routes answer after a
 * latency you set, with the status and body size you set, on as many threads as you
 * allow. Put it where your service's dependency is (its URL through
 * {@code withSpringProperty}, or behind Toxiproxy), slow it, cap its threads, and read
 * how many requests reached it at once and how long it held each.
 *
 * <pre>{@code
 * &#64;Container
 * static final DownstreamContainer payments = new DownstreamContainer()
 *     .withRoute(DownstreamContainer.route("/pay").latency(Duration.ofMillis(500)))
 *     .withRoute(DownstreamContainer.route("/search").latencyBetween(Duration.ofMillis(50), Duration.ofMillis(400)))
 *     .withThreads(10)                               // like Tomcat's threads.max; default: virtual threads
 *     .withNetworkAliases("payments");
 * ...
 * DownstreamContainer.InFlight seen = payments.inFlight();   // peak 10: the downstream's threads, full
 * }</pre>
 *
 * It runs from the kit's own classes on a stock Java image
 * ({@code eclipse-temurin:21-jre}, or the offline set's), as a non-root user, so nothing
 * is published to a registry. It listens on {@value #PORT}; routes it does not know
 * answer 404 naming the ones it does.
 */
public class DownstreamContainer extends AbstractServiceContainer<DownstreamContainer> {

	/** The port the stand-in listens on. */
	public static final int PORT = 8080;

	private final List<Route> routes = new ArrayList<>();

	/** A stand-in on the kit's Java 21 image. */
	public DownstreamContainer() {
		super(KitImages.java(JavaRuntime.JAVA_21));
		withoutJmx();
		withoutSpringBootSettings();
		withPort(PORT);
		withHealthPath(DownstreamServer.HEALTH_PATH);
		withName("downstream");
		withCreateContainerCmdModifier((cmd) -> cmd.withUser("10001:10001"));
		String classPath = KitClasses.copyInto(this);
		withCommand("java", "-XX:TieredStopAtLevel=1", "-Xss256k", "-cp", classPath, DownstreamServer.class.getName());
		withEnv("DOWNSTREAM_PORT", Integer.toString(PORT));
	}

	/**
	 * A route at {@code path} (e.g. {@code "/pay"}): answers 200 with an empty body at
	 * once unless told.
	 */
	public static Route route(String path) {
		if (path == null || !path.startsWith("/") || path.contains("?") || path.contains("|")) {
			throw new IllegalArgumentException("path must start with / and have no query, was '" + path + "'");
		}
		return new Route(path, Duration.ZERO, Duration.ZERO, 200, 0, false);
	}

	/** Serves {@code route}; a later route at the same path replaces it. */
	public DownstreamContainer withRoute(Route route) {
		this.routes.removeIf((known) -> known.path().equals(route.path()));
		this.routes.add(route);
		return this;
	}

	/**
	 * Serves requests on at most {@code threads} platform threads (1 to 10 000); the rest
	 * queue for one, as on Tomcat with {@code server.tomcat.threads.max}. Without it
	 * every request gets a virtual thread: no cap.
	 */
	public DownstreamContainer withThreads(int threads) {
		return withEnv("DOWNSTREAM_THREADS", Integer.toString(Knobs.between("threads", threads, 1, 10_000)));
	}

	/** Serves every request on a virtual thread of its own, no cap (the default). */
	public DownstreamContainer withVirtualThreads() {
		return withEnv("DOWNSTREAM_THREADS", "virtual");
	}

	@Override
	protected void configure() {
		for (int i = 0; i < this.routes.size(); i++) {
			withEnv("DOWNSTREAM_ROUTE_" + i, this.routes.get(i).spec());
		}
		super.configure();
	}

	/** The routes it serves. */
	public List<Route> routes() {
		return List.copyOf(this.routes);
	}

	/** What reached the stand-in since it started or since {@link #resetInFlight()}. */
	public InFlight inFlight() {
		return InFlight.parse(call("GET"));
	}

	/**
	 * Starts a new window: the peak becomes what is in flight now, completed and service
	 * time 0.
	 */
	public InFlight resetInFlight() {
		return InFlight.parse(call("DELETE"));
	}

	private String call(String method) {
		try (HttpClient http = HttpClient.newHttpClient()) {
			HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(DownstreamServer.IN_FLIGHT_PATH))
				.method(method, HttpRequest.BodyPublishers.noBody())
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
			return response.body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + DownstreamServer.IN_FLIGHT_PATH + " of " + name(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while reading " + name(), ex);
		}
	}

	/**
	 * One route of the stand-in: how long it holds a request, what it answers.
	 *
	 * @param path the path, e.g. {@code /pay}; the query is ignored
	 * @param minLatency the shortest hold, 0 to 10 min
	 * @param maxLatency the longest hold (each request draws uniformly between the two),
	 * 0 to 10 min
	 * @param status the status it answers, 100 to 599
	 * @param bodyBytes the answer's body size, 0 to 16 MiB
	 * @param reset whether it resets the connection after the hold instead of answering
	 */
	public record Route(String path, Duration minLatency, Duration maxLatency, int status, int bodyBytes,
			boolean reset) {

		public Route {
			Knobs.between("latency", minLatency, Duration.ZERO, Duration.ofMinutes(10));
			Knobs.between("latency", maxLatency, minLatency, Duration.ofMinutes(10));
			Knobs.between("status", status, 100, 599);
			Knobs.between("bodyBytes", bodyBytes, 0, 16 * 1024 * 1024);
		}

		/** Holds every request for {@code latency}. */
		public Route latency(Duration latency) {
			return new Route(this.path, latency, latency, this.status, this.bodyBytes, this.reset);
		}

		/**
		 * Holds each request for a time drawn uniformly between {@code min} and
		 * {@code max}.
		 */
		public Route latencyBetween(Duration min, Duration max) {
			return new Route(this.path, min, max, this.status, this.bodyBytes, this.reset);
		}

		/** Answers {@code status} (e.g. 503). */
		public Route status(int status) {
			return new Route(this.path, this.minLatency, this.maxLatency, status, this.bodyBytes, this.reset);
		}

		/** Answers a body of {@code bytes}. */
		public Route bodyBytes(int bytes) {
			return new Route(this.path, this.minLatency, this.maxLatency, this.status, bytes, this.reset);
		}

		/**
		 * Resets the connection after the hold instead of answering (a client sees a
		 * reset or a closed connection).
		 */
		public Route resetting() {
			return new Route(this.path, this.minLatency, this.maxLatency, this.status, this.bodyBytes, true);
		}

		String spec() {
			return new DownstreamServer.Route(this.path, this.minLatency.toMillis(), this.maxLatency.toMillis(),
					this.status, this.bodyBytes, this.reset)
				.spec();
		}

	}

	/**
	 * What reached the stand-in in a window.
	 *
	 * @param current requests held now
	 * @param peak the most held at once
	 * @param completed requests that finished their hold
	 * @param meanServiceTime the mean hold of the completed ones: W at the downstream
	 * @param threads its platform threads ({@link #withThreads}), empty on virtual
	 * threads
	 */
	public record InFlight(int current, int peak, long completed, Duration meanServiceTime, OptionalInt threads) {

		private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":([0-9.]+)");

		/** A reading of a stand-in on virtual threads. */
		public InFlight(int current, int peak, long completed, Duration meanServiceTime) {
			this(current, peak, completed, meanServiceTime, OptionalInt.empty());
		}

		/**
		 * Whether every thread of a stand-in with a thread cap held a request at once.
		 */
		public boolean threadsFull() {
			return this.threads.isPresent() && this.peak >= this.threads.getAsInt();
		}

		static InFlight parse(String json) {
			java.util.Map<String, String> fields = new java.util.HashMap<>();
			Matcher field = FIELD.matcher(json);
			while (field.find()) {
				fields.put(field.group(1), field.group(2));
			}
			if (!fields.containsKey("peak")) {
				throw new IllegalStateException("not an in-flight reading: " + json);
			}
			int threads = Integer.parseInt(fields.getOrDefault("threads", "0"));
			return new InFlight(Integer.parseInt(fields.get("current")), Integer.parseInt(fields.get("peak")),
					Long.parseLong(fields.get("completed")),
					Duration.ofNanos(Math.round(Double.parseDouble(fields.get("meanServiceTimeMs")) * 1e6)),
					(threads > 0) ? OptionalInt.of(threads) : OptionalInt.empty());
		}

	}

}
