package dev.bottleneckkit.sweep.internal.waits;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * What holds a service's requests back before any of its clients, as its thread dumps
 * show it: request threads waiting for a permit (a Resilience4j bulkhead, a
 * {@code Semaphore}), for a rate limiter's next permit (Resilience4j, Guava), or for
 * another pool's work while every thread of that pool is busy. The connections to a
 * destination follow such a cap: as many as the calls it lets through, flat while the
 * users double, with no request waiting for one. They name no pool then.
 */
public final class Upstream {

	/**
	 * Waits for a permit or a rate no kind claims: Guava's rate limiter (its rate lives
	 * in the team's code), a {@code Semaphore}'s.
	 */
	public static final List<Permit> LIBRARIES = List.of(
			new Permit("com.google.common.util.concurrent.RateLimiter.acquire", "a Guava rate limiter", Kind.RATE),
			new Permit("java.util.concurrent.Semaphore.acquire", "a semaphore", Kind.PERMITS),
			new Permit("java.util.concurrent.Semaphore.tryAcquire", "a semaphore", Kind.PERMITS));

	/** What a request thread waits for before the clients. */
	public enum Kind {

		/** A permit some other request holds: a bulkhead, a semaphore. */
		PERMITS,

		/** A rate limiter's next permit: time, not another request. */
		RATE,

		/** Another pool's work, every thread of that pool busy. */
		EXECUTOR,

		/**
		 * An object another request holds, handed out by a queue the team's own code
		 * takes from: a pool of its own no rule knows, named only when the test declares
		 * it ({@link Resource#own}).
		 */
		QUEUE

	}

	/**
	 * A frame a request thread waits in for a permit or a rate.
	 *
	 * @param frame the library's frame
	 * @param what what a person calls it: "a Resilience4j bulkhead"
	 * @param kind what it waits for
	 */
	public record Permit(String frame, String what, Kind kind) {

	}

	/**
	 * Frames of a request thread waiting for an object from a queue: a pool of the team's
	 * own when its own code takes from it (a client's or a connection pool's queue is
	 * that pool's).
	 */
	static final List<String> QUEUES = List.of("java.util.concurrent.ArrayBlockingQueue.take",
			"java.util.concurrent.ArrayBlockingQueue.poll", "java.util.concurrent.LinkedBlockingQueue.take",
			"java.util.concurrent.LinkedBlockingQueue.poll", "java.util.concurrent.LinkedBlockingDeque.take",
			"java.util.concurrent.LinkedBlockingDeque.poll", "java.util.concurrent.PriorityBlockingQueue.take");

	/** Frames of a request thread waiting for another thread's work. */
	static final List<String> FUTURES = List.of("java.util.concurrent.CompletableFuture.join",
			"java.util.concurrent.CompletableFuture.get", "java.util.concurrent.FutureTask.get",
			"java.util.concurrent.ForkJoinTask.join", "java.util.concurrent.ForkJoinTask.get");

	/**
	 * A client's own frames: a thread waiting on a future inside them waits for its own
	 * answer (the JDK's {@code HttpClient.send} waits in {@code CompletableFuture.get}).
	 */
	static final List<String> CLIENTS = List.of("jdk.internal.net.http", "java.net.http", "org.apache.hc",
			"reactor.netty", "reactor.core.publisher", "org.springframework.web.reactive.function.client");

	/** Frames of an executor's worker thread. */
	static final List<String> WORKERS = List.of("java.util.concurrent.ThreadPoolExecutor.runWorker",
			"java.util.concurrent.ForkJoinWorkerThread.run");

	/**
	 * The frame of an RMI connection's thread: JMX serving the kit's own probes (a thread
	 * dump, the meters), busy while it answers, never the service's pool.
	 */
	static final String JMX_CONNECTION = "sun.rmi.transport.tcp.TCPTransport$ConnectionHandler";

	/** Frames of an executor's worker idle in its pool. */
	static final List<String> IDLE = List.of("java.util.concurrent.ThreadPoolExecutor.getTask",
			"java.util.concurrent.ForkJoinPool.awaitWork");

	/** Frames a carrier of virtual threads runs them in: the scheduler, no executor. */
	private static final List<String> CARRIER = List.of("jdk.internal.vm.Continuation", "java.lang.VirtualThread");

	/** Code passed over to find the team's frame a wait is in: the JDK's, libraries'. */
	private static final List<String> NOT_THE_TEAMS = List.of("java.", "jdk.", "sun.", "io.github.resilience4j.",
			"com.google.common.", "org.springframework.", "jakarta.", "org.apache.", "io.micrometer.");

	private Upstream() {
	}

	/**
	 * One kind of wait a dump shows: what the request threads wait for, in whose code,
	 * how many, and what kind of wait it is.
	 */
	public record Wait(String what, String where, int threads, Kind kind) {

		/** "22 request threads waiting for a Resilience4j bulkhead in com.example…". */
		public String line() {
			return String.format(Locale.ROOT, "%d request thread%s waiting for %s in %s", this.threads,
					(this.threads == 1) ? "" : "s", this.what, this.where);
		}

		/** The same wait, {@code threads} request threads in it. */
		Wait counted(int threads) {
			return new Wait(this.what, this.where, threads, this.kind);
		}

	}

	/**
	 * The waits before any client in {@code dump} of its request threads, as
	 * {@code serving} tells them, the most waited first.
	 */
	public static List<Wait> waits(ThreadDump dump, List<Permit> permits, Serving serving) {
		List<String> busy = busyExecutors(dump, serving);
		Map<Wait, Integer> counted = new LinkedHashMap<>();
		for (DumpedThread thread : dump.matching(serving::serves)) {
			Optional<Wait> wait = waitOf(thread, busy, permits);
			wait.ifPresent((waited) -> counted.merge(waited, 1, Integer::sum));
		}
		return counted.entrySet()
			.stream()
			.map((entry) -> entry.getKey().counted(entry.getValue()))
			.sorted(Comparator.comparingInt(Wait::threads).reversed())
			.toList();
	}

	/**
	 * Whether a request thread in {@code dump} waits on another thread's work, a future
	 * outside any client: a pool's demand is read from its busy threads, and one dump can
	 * catch its worker between two tasks, so it takes more than one dump to read it.
	 */
	public static boolean waitsOnAFuture(ThreadDump dump, Serving serving) {
		return dump.matching(serving::serves)
			.stream()
			.anyMatch((thread) -> FUTURES.stream().anyMatch(thread::hasFrame)
					&& CLIENTS.stream().noneMatch(thread::hasFrame));
	}

	/**
	 * What {@code thread} waits for before any client, uncounted (0 threads): a permit or
	 * a rate, else an object from a queue the team's code takes from, else another pool's
	 * work when one of {@code busy} is all busy and the thread waits on a future outside
	 * any client.
	 */
	public static Optional<Wait> waitOf(DumpedThread thread, List<String> busy, List<Permit> permits) {
		Optional<Wait> permit = permits.stream()
			.filter((each) -> thread.hasFrame(each.frame()))
			.findFirst()
			.map((each) -> new Wait(each.what(), teamsFrame(thread), 0, each.kind()))
			.or(() -> fromTheTeamsQueue(thread));
		if (permit.isPresent() || busy.isEmpty() || FUTURES.stream().noneMatch(thread::hasFrame)
				|| CLIENTS.stream().anyMatch(thread::hasFrame)) {
			return permit;
		}
		return Optional.of(new Wait("another pool's work (" + String.join("; ", busy) + ")", teamsFrame(thread), 0,
				Kind.EXECUTOR));
	}

	/**
	 * The wait of {@code thread} for an object from a queue, when the frame that takes
	 * from it is the team's own: "an object from a queue (ArrayBlockingQueue.take)".
	 */
	private static Optional<Wait> fromTheTeamsQueue(DumpedThread thread) {
		List<String> frames = thread.frames();
		for (int i = 0; i + 1 < frames.size(); i++) {
			String frame = frames.get(i);
			String caller = frames.get(i + 1);
			if (QUEUES.stream().anyMatch(frame::startsWith) && !frame.equals(caller)
					&& QUEUES.stream().noneMatch(caller::startsWith)) {
				if (NOT_THE_TEAMS.stream().anyMatch(caller::startsWith)) {
					return Optional.empty();
				}
				String queue = frame.substring("java.util.concurrent.".length());
				return Optional.of(new Wait("an object from a queue (" + queue + ")", caller, 0, Kind.QUEUE));
			}
		}
		return Optional.empty();
	}

	/**
	 * The executors in {@code dump} with every thread busy, none idle in its pool: "4
	 * threads named pool-2-thread-* all busy".
	 */
	public static List<String> busyExecutors(ThreadDump dump, Serving serving) {
		return executors(dump, serving).stream()
			.filter(Executor::full)
			.map((pool) -> String.format(Locale.ROOT, "%d thread%s named %s* all busy", pool.threads(),
					(pool.threads() == 1) ? "" : "s", pool.name()))
			.toList();
	}

	/**
	 * The executors in {@code dump}: platform threads of one name (without their number)
	 * running an executor's worker loop, and how many of them run a task, not idle in the
	 * pool. Thread names are whatever the team's code gave them; a web server's request
	 * threads and the carriers of virtual threads are no such executor.
	 */
	public static List<Executor> executors(ThreadDump dump, Serving serving) {
		Map<String, List<DumpedThread>> pools = dump
			.matching((thread) -> !thread.virtual() && WORKERS.stream().anyMatch(thread::hasFrame)
					&& CARRIER.stream().noneMatch(thread::hasFrame) && !serving.serves(thread)
					&& !thread.hasFrame(JMX_CONNECTION))
			.stream()
			.filter((thread) -> !ThreadDumps.poolOf(thread).isEmpty())
			.collect(Collectors.groupingBy(ThreadDumps::poolOf, LinkedHashMap::new, Collectors.toList()));
		return pools.entrySet()
			.stream()
			.map((pool) -> new Executor(pool.getKey(), pool.getValue().size(),
					(int) pool.getValue()
						.stream()
						.filter((thread) -> IDLE.stream().noneMatch(thread::hasFrame))
						.count()))
			.toList();
	}

	/**
	 * An executor as one dump shows it.
	 *
	 * @param name its threads' name without their number: {@code pool-2-thread-}
	 * @param threads its threads
	 * @param busy those running a task
	 */
	public record Executor(String name, int threads, int busy) {

		/** Every thread runs a task, none idle. */
		public boolean full() {
			return this.busy == this.threads;
		}

	}

	/**
	 * What the dumps of the steps at the cap show waiting before the clients, each dump's
	 * waits given, in one line: the waits of the dump that shows the most, when at least
	 * half of the dumps show some. Empty without dumps, or when most show none.
	 */
	public static Optional<String> atCap(List<List<Wait>> dumps) {
		long showing = dumps.stream().filter((waits) -> !waits.isEmpty()).count();
		if (dumps.isEmpty() || 2 * showing < dumps.size()) {
			return Optional.empty();
		}
		return dumps.stream()
			.max(Comparator.comparingInt((List<Wait> waits) -> waits.stream().mapToInt(Wait::threads).sum()))
			.map((waits) -> waits.stream().map(Wait::line).collect(Collectors.joining("; ")));
	}

	/**
	 * The frame of the team's code a thread waits under: the first that is not the JDK's
	 * or a library's, else its first outside the JDK.
	 */
	static String teamsFrame(DumpedThread thread) {
		return thread.frames()
			.stream()
			.filter((frame) -> NOT_THE_TEAMS.stream().noneMatch(frame::startsWith))
			.findFirst()
			.orElseGet(thread::firstFrameOutsideJdk);
	}

}
