package dev.bottleneckkit.containers;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stand-in downstream that {@link DownstreamContainer} runs in a stock JRE image,
 * from the kit's own jar: plain HTTP/1.1 with keep-alive on {@code java.base} alone, so
 * that any Java runtime image can run it. Each route holds its request for a latency
 * (fixed, or uniform between two bounds), then answers a status with a body of so many
 * bytes, or resets the connection. Requests are served on virtual threads, or by a fixed
 * pool of platform threads that queues the rest, as Tomcat's {@code threads.max} does.
 * {@code GET /probe/in-flight} reads what is being served now, the peak, the completed
 * count and the mean service time; {@code DELETE} starts a new window.
 *
 * <p>
 * Configured by the environment: {@code DOWNSTREAM_PORT} (8080),
 * {@code DOWNSTREAM_THREADS} (a number, or {@code virtual}), and one
 * {@code DOWNSTREAM_ROUTE_<n>} per route: {@code path|latency|status|bodyBytes|reset},
 * latency {@code 300} or {@code 100-900} in milliseconds.
 */
final class DownstreamServer {

	/** The path that answers 200 once the server listens. */
	static final String HEALTH_PATH = "/health";

	static final String IN_FLIGHT_PATH = "/probe/in-flight";

	private final Map<String, Route> routes;

	private final ExecutorService workers;

	private final AtomicInteger current = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private final AtomicLong completed = new AtomicLong();

	private final AtomicLong serviceNanos = new AtomicLong();

	/** Its platform threads; 0 on virtual threads. */
	private final int threads;

	private DownstreamServer(Map<String, Route> routes, int threads) {
		this.threads = threads;
		this.routes = routes;
		this.workers = (threads > 0) ? Executors.newFixedThreadPool(threads) : null;
	}

	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(System.getenv().getOrDefault("DOWNSTREAM_PORT", "8080"));
		String threads = System.getenv().getOrDefault("DOWNSTREAM_THREADS", "virtual");
		Map<String, Route> routes = new java.util.HashMap<>();
		System.getenv().entrySet().stream().filter((e) -> e.getKey().startsWith("DOWNSTREAM_ROUTE_")).forEach((e) -> {
			Route route = Route.parse(e.getValue());
			routes.put(route.path(), route);
		});
		DownstreamServer server = new DownstreamServer(Map.copyOf(routes),
				"virtual".equals(threads) ? 0 : Integer.parseInt(threads));
		try (ServerSocket listener = new ServerSocket(port, 1000)) {
			System.out.printf(Locale.ROOT, "downstream stand-in listening on %d, %s, routes %s%n", port,
					"virtual".equals(threads) ? "virtual threads" : threads + " platform threads", routes.values());
			while (true) {
				Socket socket = listener.accept();
				Thread.ofVirtual().start(() -> server.serve(socket));
			}
		}
	}

	/** Reads requests off one kept-alive connection and answers them in order. */
	private void serve(Socket socket) {
		try (socket;
				InputStream in = new BufferedInputStream(socket.getInputStream());
				OutputStream out = socket.getOutputStream()) {
			socket.setTcpNoDelay(true);
			while (true) {
				Request request = Request.read(in);
				if (request == null) {
					return;
				}
				if (!answer(request, socket, out)) {
					return;
				}
			}
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	/** Answers one request; false when the connection is to be closed. */
	private boolean answer(Request request, Socket socket, OutputStream out) throws IOException {
		String path = request.path();
		if (path.equals(HEALTH_PATH)) {
			write(out, 200, "{\"status\":\"UP\"}");
			return true;
		}
		if (path.equals(IN_FLIGHT_PATH)) {
			if (request.method().equals("DELETE")) {
				this.peak.set(this.current.get());
				this.completed.set(0);
				this.serviceNanos.set(0);
			}
			long done = this.completed.get();
			write(out, 200,
					String.format(Locale.ROOT,
							"{\"current\":%d,\"peak\":%d,\"completed\":%d,\"meanServiceTimeMs\":%.3f,\"threads\":%d}",
							this.current.get(), this.peak.get(), done,
							(done == 0) ? 0.0 : this.serviceNanos.get() / 1e6 / done, this.threads));
			return true;
		}
		Route route = this.routes.get(path);
		if (route == null) {
			write(out, 404, "{\"error\":\"no-route\",\"detail\":\"no route " + path + "; routes: "
					+ this.routes.keySet() + "\"}");
			return true;
		}
		if (this.workers == null) {
			hold(route);
		}
		else {
			Future<?> held = this.workers.submit(() -> hold(route));
			try {
				held.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			catch (java.util.concurrent.ExecutionException ex) {
				return false;
			}
		}
		if (route.reset()) {
			socket.setSoLinger(true, 0);
			return false;
		}
		byte[] body = new byte[route.bodyBytes()];
		java.util.Arrays.fill(body, (byte) 'x');
		writeBytes(out, route.status(), body);
		return true;
	}

	/**
	 * Holds the request for its route's latency, counted in flight and in the service
	 * time.
	 */
	private void hold(Route route) {
		int now = this.current.incrementAndGet();
		this.peak.accumulateAndGet(now, Math::max);
		long started = System.nanoTime();
		try {
			Thread.sleep(route.latencyMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.serviceNanos.addAndGet(System.nanoTime() - started);
			this.completed.incrementAndGet();
			this.current.decrementAndGet();
		}
	}

	private static void write(OutputStream out, int status, String json) throws IOException {
		writeBytes(out, status, json.getBytes(StandardCharsets.UTF_8));
	}

	private static void writeBytes(OutputStream out, int status, byte[] body) throws IOException {
		String head = "HTTP/1.1 " + status + " " + ((status < 400) ? "OK" : "Error")
				+ "\r\nContent-Type: application/json" + "\r\nContent-Length: " + body.length + "\r\n\r\n";
		out.write(head.getBytes(StandardCharsets.US_ASCII));
		out.write(body);
		out.flush();
	}

	/**
	 * One route: {@code path|latency|status|bodyBytes|reset}, latency in ms, fixed or
	 * {@code min-max}.
	 */
	record Route(String path, long minMillis, long maxMillis, int status, int bodyBytes, boolean reset) {

		static Route parse(String spec) {
			String[] parts = spec.split("\\|");
			String[] latency = parts[1].split("-");
			long min = Long.parseLong(latency[0]);
			long max = (latency.length > 1) ? Long.parseLong(latency[1]) : min;
			return new Route(parts[0], min, max, Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
					Boolean.parseBoolean(parts[4]));
		}

		String spec() {
			return this.path + "|" + this.minMillis + ((this.maxMillis != this.minMillis) ? "-" + this.maxMillis : "")
					+ "|" + this.status + "|" + this.bodyBytes + "|" + this.reset;
		}

		long latencyMillis() {
			return (this.maxMillis == this.minMillis) ? this.minMillis
					: ThreadLocalRandom.current().nextLong(this.minMillis, this.maxMillis + 1);
		}

		@Override
		public String toString() {
			return this.path + " " + this.minMillis + ((this.maxMillis != this.minMillis) ? "-" + this.maxMillis : "")
					+ " ms " + (this.reset ? "reset" : this.status + ", " + this.bodyBytes + " bytes");
		}

	}

	/**
	 * A request's method and path (query dropped); its headers and body are read and
	 * skipped.
	 */
	record Request(String method, String path) {

		/** The next request on {@code in}, or null at the end of the stream. */
		static Request read(InputStream in) throws IOException {
			String line = line(in);
			while (line != null && line.isEmpty()) {
				line = line(in);
			}
			if (line == null) {
				return null;
			}
			String[] parts = line.split(" ");
			long bodyLength = 0;
			for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
				int colon = header.indexOf(':');
				if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
					bodyLength = Long.parseLong(header.substring(colon + 1).trim());
				}
			}
			in.skipNBytes(bodyLength);
			String target = (parts.length > 1) ? parts[1] : "/";
			int query = target.indexOf('?');
			return new Request(parts[0], (query >= 0) ? target.substring(0, query) : target);
		}

		private static String line(InputStream in) throws IOException {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
			int b;
			while ((b = in.read()) != -1 && b != '\n') {
				if (b != '\r') {
					bytes.write(b);
				}
			}
			return (b == -1 && bytes.size() == 0) ? null : bytes.toString(StandardCharsets.US_ASCII);
		}

	}

}
