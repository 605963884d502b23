package dev.bottleneckkit.sweep.internal.read;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerNetwork;
import dev.bottleneckkit.images.KitImages.JavaRuntime;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.run.Readings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;

/**
 * Counts a service's outbound TCP connections by destination, for any client library and
 * any image: a small kit container joins the service's network namespace and reads
 * {@code /proc/net/tcp} and {@code /proc/net/tcp6} four times a second. An established
 * connection whose local port is not one the service listens on is outbound; grouped by
 * the remote address and port, and named by the container behind that address
 * ({@code quotes:8080}). A client pool that caps shows here as connections to one
 * destination flat at the pool's size while users double, whatever the library (Reactor
 * Netty without meters, Jetty's client, the JDK's, any JDBC pool).
 *
 * <pre>{@code
 * OutboundConnections connections = OutboundConnections.of(service).start();   // after start
 * long from = System.nanoTime();
 * ... load ...
 * List<Step.Destination> seen = connections.between(from, System.nanoTime());
 * }</pre>
 */
public final class OutboundConnections implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(OutboundConnections.class);

	/** Between two readings of the service's sockets. */
	static final Duration INTERVAL = Duration.ofMillis(250);

	private final GenericContainer<?> service;

	private GenericContainer<?> reader;

	/** Readings by the nanoTime they arrived: destination address to count. */
	private final TreeMap<Long, Map<String, Integer>> readings = new TreeMap<>();

	/**
	 * Readings of each connection's bytes by the nanoTime they arrived, where the reader
	 * can ask the kernel: {@code ip:port/local-port} to bytes acknowledged and received.
	 */
	private final TreeMap<Long, Map<String, long[]>> bytes = new TreeMap<>();

	/** Names by address, as far as learnt. */
	private final Map<String, String> names = new ConcurrentHashMap<>();

	/** The engine's containers, named, by their addresses on its networks. */
	private final Supplier<Map<String, String>> addresses;

	OutboundConnections(GenericContainer<?> service, Supplier<Map<String, String>> addresses) {
		this.service = service;
		this.addresses = addresses;
	}

	/** A probe on the started container {@code service}. */
	public static OutboundConnections of(GenericContainer<?> service) {
		return new OutboundConnections(service, OutboundConnections::engineAddresses);
	}

	/**
	 * Starts the reader in the service's network namespace (a container of the kit's Java
	 * image, as an unprivileged user, labelled like every container of the kit).
	 */
	public OutboundConnections start() {
		this.reader = KitReader
			.running(JavaRuntime.JAVA_25, "socket reader", SocketCounter.class, Long.toString(INTERVAL.toMillis()))
			.withNetworkMode("container:" + this.service.getContainerId())
			.withLogConsumer(this::onLine);
		this.reader.start();
		return this;
	}

	/**
	 * Each destination's fewest and most established connections over the readings
	 * between {@code fromNanos} and {@code toNanos} ({@code System.nanoTime()}), most
	 * connections first; destinations never seen are left out.
	 */
	public List<Step.Destination> between(long fromNanos, long toNanos) {
		Map<String, int[]> range = new HashMap<>();
		int readingsInRange = 0;
		synchronized (this.readings) {
			for (Map<String, Integer> reading : this.readings.subMap(fromNanos, true, toNanos, true).values()) {
				readingsInRange++;
				Set<String> seen = new HashSet<>(range.keySet());
				seen.addAll(reading.keySet());
				for (String address : seen) {
					int count = reading.getOrDefault(address, 0);
					int[] minMax = range.computeIfAbsent(address, (a) -> new int[] { Integer.MAX_VALUE, 0 });
					minMax[0] = Math.min(minMax[0], count);
					minMax[1] = Math.max(minMax[1], count);
				}
			}
		}
		// A destination first seen in a later reading had none in the earlier ones.
		int readingsSeen = readingsInRange;
		Optional<Map<String, Integer>> inUse = inUse(fromNanos, toNanos);
		List<Step.Destination> destinations = new ArrayList<>();
		range.forEach((address, minMax) -> destinations.add(new Step.Destination(nameOf(address), address,
				(readingsSeen > 1) ? minMax[0] : minMax[1], minMax[1], readingsSeen,
				inUse.map((counts) -> OptionalInt.of(counts.getOrDefault(address, 0))).orElse(OptionalInt.empty()))));
		destinations.sort(Comparator.comparingInt(Step.Destination::max).reversed());
		return destinations;
	}

	/**
	 * Each destination's connections that carried a request between {@code fromNanos} and
	 * {@code toNanos}: their bytes acknowledged or received grew from their first reading
	 * in it (zero for a connection opened meanwhile) to their last; empty where no
	 * reading of bytes arrived in it.
	 */
	Optional<Map<String, Integer>> inUse(long fromNanos, long toNanos) {
		Map<String, long[]> first = new HashMap<>();
		Map<String, long[]> last = new HashMap<>();
		synchronized (this.bytes) {
			Map<Long, Map<String, long[]>> inRange = this.bytes.subMap(fromNanos, true, toNanos, true);
			if (inRange.isEmpty()) {
				return Optional.empty();
			}
			boolean firstReading = true;
			for (Map<String, long[]> reading : inRange.values()) {
				for (Map.Entry<String, long[]> connection : reading.entrySet()) {
					long[] opened = firstReading ? connection.getValue() : new long[2];
					first.putIfAbsent(connection.getKey(), opened);
					last.put(connection.getKey(), connection.getValue());
				}
				firstReading = false;
			}
		}
		Map<String, Integer> counts = new HashMap<>();
		last.forEach((connection, to) -> {
			long[] from = first.get(connection);
			if (to[0] > from[0] || to[1] > from[1]) {
				counts.merge(connection.substring(0, connection.lastIndexOf('/')), 1, Integer::sum);
			}
		});
		return Optional.of(counts);
	}

	/** How many readings have arrived since the reader started. */
	public int readings() {
		synchronized (this.readings) {
			return this.readings.size();
		}
	}

	/** Stops the reader; the service keeps running. */
	@Override
	public void close() {
		if (this.reader != null) {
			this.reader.stop();
		}
	}

	/** Takes the reader's output: a reading a line. */
	void onLine(OutputFrame frame) {
		String text = frame.getUtf8StringWithoutLineEnding();
		if (text == null) {
			return;
		}
		for (String line : text.split("\n")) {
			if (line.startsWith(SocketCounter.TCP_MARK)) {
				onBytes(line.substring(SocketCounter.TCP_MARK.length()).trim());
				continue;
			}
			if (!line.startsWith(SocketCounter.MARK)) {
				continue;
			}
			Map<String, Integer> reading = new TreeMap<>();
			for (String pair : line.substring(SocketCounter.MARK.length()).trim().split(" ")) {
				int equals = pair.lastIndexOf('=');
				if (equals > 0) {
					reading.put(pair.substring(0, equals), Integer.parseInt(pair.substring(equals + 1)));
				}
			}
			synchronized (this.readings) {
				this.readings.put(System.nanoTime(), reading);
			}
		}
	}

	/** A reading of bytes: {@code 172.18.0.5:8080/43210=1234,5678 …}. */
	void onBytes(String reading) {
		Map<String, long[]> connections = new HashMap<>();
		for (String pair : reading.split(" ")) {
			int equals = pair.lastIndexOf('=');
			int comma = pair.lastIndexOf(',');
			if (equals > 0 && comma > equals) {
				connections.put(pair.substring(0, equals), new long[] {
						Long.parseLong(pair.substring(equals + 1, comma)), Long.parseLong(pair.substring(comma + 1)) });
			}
		}
		synchronized (this.bytes) {
			this.bytes.put(System.nanoTime(), connections);
		}
	}

	/**
	 * {@code 172.18.0.3:8080} → {@code quotes:8080} when a container of this run has that
	 * address (its first network alias, else its name); else the address.
	 */
	private String nameOf(String address) {
		String ip = address.substring(0, address.lastIndexOf(':'));
		String port = address.substring(address.lastIndexOf(':') + 1);
		if (ip.equals("127.0.0.1")) {
			return "localhost:" + port;
		}
		if (!this.names.containsKey(ip)) {
			learnNames();
		}
		return this.names.getOrDefault(ip, ip) + ":" + port;
	}

	/** The addresses of the containers on the Docker host, by IP. */
	private void learnNames() {
		this.addresses.get().forEach(this.names::putIfAbsent);
	}

	/** The engine's containers, named, by their addresses; none where it cannot tell. */
	private static Map<String, String> engineAddresses() {
		try {
			return addresses(DockerClientFactory.lazyClient().listContainersCmd().exec(), MachineCpu::nameOf);
		}
		catch (RuntimeException ex) {
			log.debug("container addresses not read: {}", ex.toString());
			return Map.of();
		}
	}

	/**
	 * {@code containers} as the engine lists them, named by {@code name}, by each of
	 * their addresses on the engine's networks.
	 */
	static Map<String, String> addresses(List<Container> containers, Function<Container, String> name) {
		Map<String, String> byAddress = new HashMap<>();
		for (Container container : containers) {
			if (container.getNetworkSettings() == null || container.getNetworkSettings().getNetworks() == null) {
				continue;
			}
			for (ContainerNetwork network : container.getNetworkSettings().getNetworks().values()) {
				String ip = network.getIpAddress();
				if (ip != null && !ip.isEmpty()) {
					byAddress.putIfAbsent(ip, name.apply(container));
				}
			}
		}
		return byAddress;
	}

}
