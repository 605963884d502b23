package dev.bottleneckkit.load;

import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongUnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load drivers' engine: every connection of a run on one thread and one
 * {@link Selector}, as wrk runs its connections on an event loop. A request costs a
 * write, a read and a share of one {@code epoll_wait}, no thread hand-off; on two cores,
 * every cycle the driver does not spend is left to the service it measures
 * ({@code bench/driver-vs-wrk.sh} measures it against wrk).
 *
 * <p>
 * HTTP/1.1 requests of any method on kept-alive connections, one request at a time per
 * connection; each failure named by its kind: {@code http-503} (with the error a JSON
 * body names: {@code http-504 read-timeout}), {@code timeout}, {@code connect-timeout},
 * {@code connect-refused}, {@code connection-reset}, {@code connection-closed},
 * {@code stale-connection}. The selector watches a kept-alive connection while it sits
 * idle: one the service closes, or that receives bytes nobody asked for (an idle-timeout
 * 408), is closed there, and the next request goes on a new one; reusing a connection
 * costs no check of its own. A request is never sent twice unless its method is
 * idempotent (RFC 9110 9.2.2): a {@code GET} that meets a close before any byte of its
 * answer is sent once more on a new connection, as HTTP clients do; a {@code POST} counts
 * as {@code stale-connection}.
 */
final class HttpEventLoop implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(HttpEventLoop.class);

	/**
	 * The loop's own CPU time: the load generator's self-check (is the generator the
	 * cap?).
	 */
	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final long CONNECT_TIMEOUT_NANOS = Duration.ofSeconds(10).toNanos();

	/** How often requests are checked against their deadline: the timeouts' precision. */
	private static final long TIMEOUT_TICK_NANOS = Duration.ofMillis(5).toNanos();

	private static final long PROGRESS_NANOS = Duration.ofSeconds(5).toNanos();

	/**
	 * A closed-loop user whose connection failed waits this long before its next request,
	 * twice as long after each further failure, up to {@link #MAX_BACK_OFF_NANOS}.
	 */
	static final long BACK_OFF_NANOS = Duration.ofMillis(100).toNanos();

	static final long MAX_BACK_OFF_NANOS = Duration.ofSeconds(1).toNanos();

	/**
	 * How many windows' lengths the users go on cycling past a window's end at most, for
	 * the requests that began inside it.
	 */
	static final int CONTINUATION = 2;

	private static final long MAX_CONTINUATION_NANOS = Duration.ofSeconds(30).toNanos();

	/** Methods a client may send again after a connection failed (RFC 9110 9.2.2). */
	static final java.util.Set<String> IDEMPOTENT = java.util.Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS",
			"TRACE");

	private final String name;

	/** Where each side's requests go: one service a side. */
	private final URI[] targets;

	/**
	 * Where each side's requests begin and end in {@link #requests}: a load in turns has
	 * two sides, any other one.
	 */
	private final int[] sideStarts;

	/**
	 * The clock of a load in turns, which sends each user's next request to the side
	 * whose turn it is; null for any other load.
	 */
	private final Turns turns;

	/**
	 * The requests of the mix as they go on the wire, and their weights added up in
	 * order.
	 */
	private final byte[][] requests;

	/** Whether each request of the mix is a {@code HEAD}: its answer has no body. */
	private final boolean[] heads;

	/** Whether each request of the mix may be sent again (RFC 9110 9.2.2). */
	private final boolean[] idempotent;

	private final int[] cumulativeWeights;

	private final long timeoutNanos;

	private final Measurement measurement;

	private final Selector selector;

	/**
	 * One read buffer for every connection: answers are parsed as they arrive, on this
	 * one thread.
	 */
	private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);

	private final List<Connection> connections = new ArrayList<>();

	private final ArrayDeque<Connection> idle = new ArrayDeque<>();

	/** Each side's address, once resolved. */
	private final InetSocketAddress[] addresses;

	private int inFlight;

	private long nextTimeoutCheck;

	private long nextProgress;

	/**
	 * Connections whose request ended, to be handed on by the loop (never from inside a
	 * callback: no recursion).
	 */
	private final ArrayDeque<Connection> ended = new ArrayDeque<>();

	/**
	 * Closed-loop users pausing after a failed connection, in the order their pause ends.
	 */
	private final ArrayDeque<Connection> backingOff = new ArrayDeque<>();

	/** Closed-loop users yet to send their first request, in the order they join. */
	private final ArrayDeque<Connection> joining = new ArrayDeque<>();

	/** Whether this loop logs the run's progress (one loop of a run does). */
	private final boolean logsProgress;

	HttpEventLoop(String name, List<Request> mix, Duration requestTimeout, Measurement measurement,
			boolean logsProgress) {
		this(name, List.of(mix), null, requestTimeout, measurement, logsProgress);
	}

	/**
	 * A loop over {@code sides}, one mix a side, each to one service; with two sides,
	 * {@code turns} says whose turn it is.
	 */
	HttpEventLoop(String name, List<List<Request>> sides, Turns turns, Duration requestTimeout, Measurement measurement,
			boolean logsProgress) {
		this.name = name;
		this.turns = turns;
		List<Request> mix = sides.stream().flatMap(List::stream).toList();
		this.targets = new URI[sides.size()];
		this.addresses = new InetSocketAddress[sides.size()];
		this.sideStarts = new int[sides.size() + 1];
		this.requests = new byte[mix.size()][];
		this.heads = new boolean[mix.size()];
		this.idempotent = new boolean[mix.size()];
		this.cumulativeWeights = new int[mix.size()];
		int i = 0;
		for (int side = 0; side < sides.size(); side++) {
			List<Request> own = sides.get(side);
			this.targets[side] = own.get(0).uri();
			this.sideStarts[side] = i;
			int total = 0;
			for (Request request : own) {
				if (!request.hostAndPort().equals(own.get(0).hostAndPort())) {
					throw new IllegalArgumentException(
							"a mix of requests goes to one service: " + own.get(0).hostAndPort() + " and "
									+ request.hostAndPort() + " are two; run a load for each");
				}
				this.requests[i] = request.bytes();
				this.heads[i] = request.method().equals("HEAD");
				this.idempotent[i] = IDEMPOTENT.contains(request.method());
				total += request.weight();
				this.cumulativeWeights[i] = total;
				i++;
			}
		}
		this.sideStarts[sides.size()] = i;
		this.timeoutNanos = requestTimeout.toNanos();
		this.measurement = measurement;
		this.logsProgress = logsProgress;
		try {
			this.selector = Selector.open();
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot open a selector for the load: " + ex, ex);
		}
	}

	/**
	 * A closed loop of {@code users}: each sends its next request as soon as the last one
	 * is answered, until the measurement window ends (or {@code requests} succeeded in
	 * it, when positive); the {@code i}-th user sends its first request
	 * {@code joinNanos[i]} after the loop starts (a ramp; {@code joinNanos} in increasing
	 * order).
	 */
	void closedLoop(int users, long requests, long[] joinNanos) {
		long cpuBefore = THREADS.getCurrentThreadCpuTime();
		long wallBefore = System.nanoTime();
		try {
			runClosedLoop(users, requests, joinNanos);
		}
		finally {
			this.measurement.generatorThread(THREADS.getCurrentThreadCpuTime() - cpuBefore,
					System.nanoTime() - wallBefore);
		}
	}

	private void runClosedLoop(int users, long requests, long[] joinNanos) {
		long now = System.nanoTime();
		for (int i = 0; i < users; i++) {
			if (joinNanos[i] <= 0) {
				send(onTurn(newUser(), now), now);
			}
			else {
				Connection user = newUser();
				user.notBefore = now + joinNanos[i];
				this.joining.add(user);
			}
		}
		while (!Thread.currentThread().isInterrupted()) {
			now = System.nanoTime();
			while (!this.joining.isEmpty() && this.joining.peek().notBefore - now <= 0) {
				this.ended.add(this.joining.poll());
			}
			// A user whose connection failed (refused, timed out) tries again after a
			// pause that doubles with each failure, as a client's back-off would: without
			// it a closed loop spins on a service that is down, taking the CPU others
			// need.
			while (!this.backingOff.isEmpty() && this.backingOff.peek().notBefore - now <= 0) {
				this.ended.add(this.backingOff.poll());
			}
			// Each user sends its next request once its last one ended; those that ended
			// since the last round only, so that the loop gets back to its timeouts.
			for (int i = this.ended.size(); i > 0; i--) {
				Connection user = this.ended.poll();
				now = System.nanoTime();
				if (requests > 0 && this.measurement.completedInWindow() >= requests) {
					this.measurement.endWindowAt(now);
				}
				if (now >= this.measurement.windowEndNanos() && !windowRequestsInFlight()) {
					continue;
				}
				if (user.connectFailed && !user.backedOff) {
					user.backOff = (user.backOff == 0) ? BACK_OFF_NANOS
							: Math.min(2 * user.backOff, MAX_BACK_OFF_NANOS);
					user.notBefore = now + user.backOff;
					user.backedOff = true;
					this.backingOff.add(user);
					continue;
				}
				user.backedOff = false;
				send(onTurn(user, now), now);
			}
			if (this.inFlight == 0 && this.ended.isEmpty() && this.backingOff.isEmpty() && this.joining.isEmpty()) {
				return;
			}
			long until = !this.ended.isEmpty() ? System.nanoTime()
					: Math.min(this.backingOff.isEmpty() ? Long.MAX_VALUE : this.backingOff.peek().notBefore,
							this.joining.isEmpty() ? Long.MAX_VALUE : this.joining.peek().notBefore);
			poll(until);
		}
	}

	/**
	 * Whether a request that began inside the window is still in flight. Until none is,
	 * the users go on cycling past the window's end: a request waiting in the service's
	 * queue when the window ends must meet the queue it would have met had the load gone
	 * on. A queue that serves the newest first (a virtual-thread scheduler) empties fast
	 * once the load stops and hands its oldest a latency shorter than they would have
	 * had: a queue of 9 users on 3 resources held 1 s read 3.24 rps for 3.0 that way.
	 */
	private boolean windowRequestsInFlight() {
		long end = this.measurement.windowEndNanos();
		// At most twice the window's length past its end (30 s at most): a queue that
		// always serves the newest could hold its oldest for as long as new requests
		// come. One still waiting then has waited that long, and counts at most window /
		// (window + that) of a request: the counting error CONTINUATION bounds.
		if (System.nanoTime() - end > Math.min(CONTINUATION * (end - this.measurement.windowStartNanos),
				MAX_CONTINUATION_NANOS)) {
			return false;
		}
		boolean mine = false;
		for (Connection connection : this.connections) {
			if (connection.inFlight() && connection.start < end) {
				mine = true;
				break;
			}
		}
		// Every event loop of the run goes on until none has such a request: the users of
		// one that stopped early would lighten the queue the other's requests wait in.
		return this.measurement.windowRequestsInFlight(this, mine);
	}

	/**
	 * An open loop: request {@code i} is due at {@code arrival(i)} (nanoTime) until the
	 * window ends; at most {@code maxOutstanding} in flight, arrivals past that counted
	 * as {@code outstanding-limit}.
	 */
	void openLoop(LongUnaryOperator arrival, int maxOutstanding) {
		long cpuBefore = THREADS.getCurrentThreadCpuTime();
		long wallBefore = System.nanoTime();
		try {
			runOpenLoop(arrival, maxOutstanding);
		}
		finally {
			this.measurement.generatorThread(THREADS.getCurrentThreadCpuTime() - cpuBefore,
					System.nanoTime() - wallBefore);
		}
	}

	private void runOpenLoop(LongUnaryOperator arrival, int maxOutstanding) {
		long next = 0;
		long due = arrival.applyAsLong(next);
		while (!Thread.currentThread().isInterrupted()) {
			while (!this.ended.isEmpty()) {
				this.idle.push(this.ended.poll());
			}
			long now = System.nanoTime();
			while (due <= now && due < this.measurement.windowEndNanos()) {
				if (this.inFlight < maxOutstanding) {
					send(this.idle.isEmpty() ? newConnection() : this.idle.pop(), due);
				}
				else {
					this.measurement.recordNotSent(due, "outstanding-limit");
				}
				due = arrival.applyAsLong(++next);
			}
			boolean arrivalsLeft = due < this.measurement.windowEndNanos();
			if (!arrivalsLeft && this.inFlight == 0) {
				return;
			}
			poll(!this.ended.isEmpty() ? now : arrivalsLeft ? due : Long.MAX_VALUE);
		}
	}

	/**
	 * Waits for I/O until {@code until} (nanoTime) at the latest, handles it, and ends
	 * requests past their deadline.
	 */
	private void poll(long until) {
		long now = System.nanoTime();
		long wait = Math.min(until - now, (this.inFlight > 0) ? this.nextTimeoutCheck - now : Long.MAX_VALUE);
		wait = Math.min(wait, this.nextProgress - now);
		try {
			if (wait <= 0) {
				this.selector.selectNow();
			}
			else if (wait < 1_000_000) {
				// select() counts whole milliseconds: a due arrival closer than that
				// waits here, not a millisecond late.
				LockSupport.parkNanos(wait);
				this.selector.selectNow();
			}
			else {
				this.selector.select(Math.max(1, wait / 1_000_000));
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("the load's selector failed: " + ex, ex);
		}
		Iterator<SelectionKey> ready = this.selector.selectedKeys().iterator();
		while (ready.hasNext()) {
			SelectionKey key = ready.next();
			ready.remove();
			Connection connection = (Connection) key.attachment();
			if (key.isValid()) {
				connection.ready(key);
			}
		}
		now = System.nanoTime();
		if (now - this.nextTimeoutCheck >= 0) {
			this.nextTimeoutCheck = now + TIMEOUT_TICK_NANOS;
			for (Connection connection : this.connections) {
				connection.checkDeadline(now);
			}
		}
		if (now - this.nextProgress >= 0) {
			if (this.nextProgress != 0 && this.logsProgress) {
				long second = (now - this.measurement.startNanos) / 1_000_000_000L;
				log.info("{}: {} s, {} rps in the last second", this.name, second,
						this.measurement.succeededInSecond(second - 1));
			}
			this.nextProgress = now + PROGRESS_NANOS;
		}
	}

	private Connection newConnection() {
		Connection connection = new Connection(0);
		this.connections.add(connection);
		return connection;
	}

	/**
	 * A closed-loop user: a connection to each side, the other's its partner, the first
	 * side's returned.
	 */
	private Connection newUser() {
		Connection first = newConnection();
		for (int side = 1; side < this.targets.length; side++) {
			Connection other = new Connection(side);
			this.connections.add(other);
			other.partner = first;
			first.partner = other;
		}
		return first;
	}

	/**
	 * The connection of {@code user} to the side whose turn it is at {@code now}: the
	 * user itself, but for a load in turns.
	 */
	private Connection onTurn(Connection user, long now) {
		return (this.turns == null || this.turns.sideAt(now) == user.side) ? user : user.partner;
	}

	private void send(Connection connection, long start) {
		this.inFlight++;
		connection.start(start);
	}

	/**
	 * Ends the request on {@code connection}: records it; the loop hands the connection
	 * on.
	 */
	private void finish(Connection connection, String failure) {
		this.inFlight--;
		long done = System.nanoTime();
		if (this.turns != null && failure == null) {
			this.turns.answered(connection.side, connection.start, done);
		}
		// A load in turns keeps each side's figures apart, not each route's.
		if (this.measurement.record(connection.start, done, failure,
				(this.turns != null) ? connection.side : connection.route)) {
			this.measurement.userAnswered(++connection.endedInWindow, done);
		}
		this.ended.add(connection);
	}

	@Override
	public void close() {
		for (Connection connection : this.connections) {
			connection.closeChannel();
		}
		try {
			this.selector.close();
		}
		catch (IOException ex) {
			log.debug("selector of {} not closed: {}", this.name, ex.toString());
		}
	}

	/**
	 * The kind of an I/O failure: the service reset the connection, or closed it without
	 * an answer.
	 */
	static String ioKind(IOException ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
			if (message.contains("connection reset")) {
				return "connection-reset";
			}
			if (cause instanceof EOFException || message.contains("closed") || message.contains("broken pipe")) {
				return "connection-closed";
			}
		}
		return "io-" + ex.getClass().getSimpleName();
	}

	/** The index of a request of {@code side}'s mix, drawn by weight. */
	private int draw(int side) {
		int first = this.sideStarts[side];
		int last = this.sideStarts[side + 1] - 1;
		if (first == last) {
			return first;
		}
		int ticket = ThreadLocalRandom.current().nextInt(this.cumulativeWeights[last]);
		int route = first;
		while (this.cumulativeWeights[route] <= ticket) {
			route++;
		}
		return route;
	}

	/** One kept-alive connection and the request on it. */
	private final class Connection {

		/** The side this connection sends to: 0 but for a load in turns. */
		final int side;

		/**
		 * The same user's connection to the other side of a load in turns; null for any
		 * other load.
		 */
		Connection partner;

		/** The request being sent, drawn from the mix by weight at each start. */
		private ByteBuffer out;

		/** Its index in the mix. */
		int route;

		private final ResponseParser parser = new ResponseParser();

		private SocketChannel channel;

		private SelectionKey key;

		private boolean connecting;

		private long connectStarted;

		/**
		 * The request's start (intended start, for an open loop): its latency counts from
		 * here.
		 */
		long start;

		/** When the request in flight times out (nanoTime); 0 when none is in flight. */
		private long deadline;

		/**
		 * Whether the last request failed to connect (refused, timed out, unknown host).
		 */
		boolean connectFailed;

		/**
		 * End of a back-off pause (nanoTime), its length, and whether the user has taken
		 * it.
		 */
		long notBefore;

		long backOff;

		boolean backedOff;

		/** Requests of this user that ended inside the measurement window. */
		long endedInWindow;

		/**
		 * Whether the connection already carried an answer: a close before the next one
		 * is the idle close.
		 */
		private boolean reused;

		private boolean retried;

		Connection(int side) {
			this.side = side;
		}

		void start(long start) {
			this.start = start;
			this.route = draw(this.side);
			this.out = ByteBuffer.wrap(HttpEventLoop.this.requests[this.route]);
			this.connectFailed = false;
			this.deadline = System.nanoTime() + HttpEventLoop.this.timeoutNanos;
			this.retried = false;
			if (this.channel == null) {
				open();
			}
			else {
				write();
			}
		}

		private void open() {
			this.reused = false;
			try {
				if (HttpEventLoop.this.addresses[this.side] == null) {
					URI target = HttpEventLoop.this.targets[this.side];
					HttpEventLoop.this.addresses[this.side] = new InetSocketAddress(target.getHost(),
							(target.getPort() > 0) ? target.getPort() : 80);
				}
				this.channel = SocketChannel.open();
				this.channel.configureBlocking(false);
				this.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
				this.connectStarted = System.nanoTime();
				if (this.channel.connect(HttpEventLoop.this.addresses[this.side])) {
					this.key = this.channel.register(HttpEventLoop.this.selector, 0, this);
					write();
				}
				else {
					this.connecting = true;
					this.key = this.channel.register(HttpEventLoop.this.selector, SelectionKey.OP_CONNECT, this);
				}
			}
			catch (UnresolvedAddressException ex) {
				HttpEventLoop.this.addresses[this.side] = null;
				fail("unknown-host");
			}
			catch (IOException ex) {
				fail((ex instanceof ConnectException) ? "connect-refused" : ioKind(ex));
			}
		}

		private void write() {
			this.parser.reset(HttpEventLoop.this.heads[this.route]);
			this.out.clear();
			try {
				this.channel.write(this.out);
				this.key.interestOps(this.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
			}
			catch (IOException ex) {
				onClosed(ex);
			}
		}

		void ready(SelectionKey ready) {
			if (this.deadline == 0) {
				// Readable while idle: the service closed the connection (an idle
				// timeout) or sent bytes nobody asked for. Neither carries a request.
				closeChannel();
				return;
			}
			try {
				if (this.connecting && ready.isConnectable()) {
					this.channel.finishConnect();
					this.connecting = false;
					write();
				}
				else if (ready.isWritable()) {
					this.channel.write(this.out);
					if (!this.out.hasRemaining()) {
						this.key.interestOps(SelectionKey.OP_READ);
					}
				}
				else if (ready.isReadable()) {
					read();
				}
			}
			catch (ConnectException ex) {
				fail("connect-refused");
			}
			catch (IOException ex) {
				onClosed(ex);
			}
		}

		private void read() throws IOException {
			ByteBuffer buffer = HttpEventLoop.this.readBuffer;
			while (true) {
				buffer.clear();
				int read = this.channel.read(buffer);
				if (read < 0) {
					onClosed(new EOFException("connection closed"));
					return;
				}
				if (read == 0) {
					return;
				}
				buffer.flip();
				if (this.parser.feed(buffer)) {
					// Bytes after a whole answer were asked for by nobody: the connection
					// is not to be trusted with the next request.
					answered(this.parser.keepAlive() && !buffer.hasRemaining());
					return;
				}
				if (read < buffer.capacity()) {
					return;
				}
			}
		}

		/** The connection failed or closed mid-request. */
		private void onClosed(IOException ex) {
			if (this.deadline == 0) {
				return;
			}
			if (ex instanceof EOFException && this.parser.closed()) {
				// An answer without a length, which the close ends.
				answered(false);
				return;
			}
			String kind = ioKind(ex);
			boolean closedOrReset = kind.equals("connection-closed") || kind.equals("connection-reset");
			if (closedOrReset && this.reused && !this.retried && !this.parser.started()) {
				// Closed by the service while it sat idle (our request then meets its FIN
				// or its RST) before any byte of an answer: the request may have reached
				// it. Only an idempotent one is sent again.
				if (!HttpEventLoop.this.idempotent[this.route]) {
					fail("stale-connection");
					return;
				}
				closeChannel();
				this.retried = true;
				open();
				return;
			}
			fail(kind);
		}

		private void answered(boolean keepAlive) {
			this.backOff = 0;
			String failure = this.parser.failure();
			if (keepAlive) {
				// Still read-ready in the selector: a close or a byte while idle shows
				// there (see ready).
				this.reused = true;
			}
			else {
				closeChannel();
			}
			this.deadline = 0;
			finish(this, failure);
		}

		private void fail(String kind) {
			this.connectFailed = kind.startsWith("connect-") || kind.equals("unknown-host");
			closeChannel();
			if (this.deadline == 0) {
				return;
			}
			this.deadline = 0;
			finish(this, kind);
		}

		/** Whether a request is in flight on this connection. */
		boolean inFlight() {
			return this.deadline != 0;
		}

		void checkDeadline(long now) {
			if (this.deadline == 0) {
				return;
			}
			if (this.connecting && now - this.connectStarted > CONNECT_TIMEOUT_NANOS) {
				fail("connect-timeout");
			}
			else if (now - this.deadline > 0) {
				fail("timeout");
			}
		}

		void closeChannel() {
			this.connecting = false;
			this.reused = false;
			if (this.channel != null) {
				try {
					this.channel.close();
				}
				catch (IOException ex) {
					// closing anyway
				}
				this.channel = null;
				this.key = null;
			}
		}

	}

}
