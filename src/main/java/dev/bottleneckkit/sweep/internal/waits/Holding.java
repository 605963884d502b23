package dev.bottleneckkit.sweep.internal.waits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;

/**
 * One wait site in one dump: the request threads that wait there and the threads that
 * hold what they wait for. The holders are read three ways, the first that applies:
 * <ul>
 * <li>the threads that own the monitor the waiters are blocked on (JDK 25's dumps say who
 * owns which monitor);</li>
 * <li>for a future or a latch, the threads that complete it: the busy workers of one
 * pool, by their threads' name, running the waiters' own code where some do (a fan-out to
 * the team's pool), else running units of work of code outside the JDK (a client's
 * dispatcher: its calls run on its threads while the others wait in a queue no thread
 * waits in);</li>
 * <li>otherwise the request threads past the same point of the same handler: their stacks
 * share the waiters' path from the handler in, then leave it where the waiters went on to
 * the site (the licence taken, the call made). Of the groups leaving at one frame, the
 * largest, the deeper on a tie: at a cap every holder does the same thing.</li>
 * </ul>
 * A wait no thread in the dump holds (a client's future whose answer is a connection's, a
 * socket's read) has no holders here; they are read from connections.
 *
 * @param site where the waiters wait
 * @param waiters the request threads waiting there
 * @param holders the threads holding what they wait for, as {@code how} found them
 * @param how how the holders were found
 * @param frame for holders past the same point, the frame where they left the waiters'
 * path; for busy workers, the frame that starts each of their units of work
 */
public record Holding(WaitSite site, List<DumpedThread> waiters, List<DumpedThread> holders, How how,
		Optional<String> frame) {

	/** How the holders were found. */
	public enum How {

		/** They own the monitor the waiters are blocked on. */
		OWN_THE_MONITOR("owning its monitor"),

		/** They are the busy workers of the pool whose work the waiters join. */
		BUSY_WORKERS("busy workers of the pool whose work they join"),

		/** They are request threads past the same point of the same handler. */
		PAST_THE_SITE("request threads past the same point"),

		/** No thread of the dump holds it: a connection's answer, time. */
		NOT_IN_THE_DUMP("not a thread of the dump");

		private final String words;

		How(String words) {
			this.words = words;
		}

		public String words() {
			return this.words;
		}

	}

	/** Frames of an executor's worker thread. */
	static final List<String> WORKERS = List.of("java.util.concurrent.ThreadPoolExecutor.runWorker",
			"java.util.concurrent.ForkJoinWorkerThread.run", "java.util.concurrent.ThreadPerTaskExecutor$");

	/**
	 * Every wait site of {@code requests} in {@code dump}, the most waiters first, each
	 * with its holders.
	 */
	public static List<Holding> in(ThreadDump dump, Predicate<DumpedThread> requests) {
		Map<WaitSite, List<DumpedThread>> sites = new LinkedHashMap<>();
		for (DumpedThread thread : dump.matching(requests)) {
			WaitSite.of(thread).ifPresent((site) -> sites.computeIfAbsent(site, (s) -> new ArrayList<>()).add(thread));
		}
		return sites.entrySet()
			.stream()
			.sorted(Comparator.comparingInt((Map.Entry<WaitSite, List<DumpedThread>> e) -> e.getValue().size())
				.reversed())
			.map((e) -> of(e.getKey(), e.getValue(), dump, requests))
			.toList();
	}

	/** {@code site}'s holding in {@code dump}, its {@code waiters} given. */
	static Holding of(WaitSite site, List<DumpedThread> waiters, ThreadDump dump, Predicate<DumpedThread> requests) {
		if (!site.primitive().heldByAThread()) {
			return new Holding(site, waiters, List.of(), How.NOT_IN_THE_DUMP, Optional.empty());
		}
		Set<String> monitors = waiters.stream()
			.flatMap((waiter) -> waiter.blockedOn().or(waiter::waitingOn).stream())
			.collect(Collectors.toSet());
		List<DumpedThread> owners = dump
			.matching((thread) -> thread.monitorsOwned().stream().anyMatch(monitors::contains));
		if (site.primitive() == Primitive.MONITOR && !owners.isEmpty()) {
			return new Holding(site, waiters, owners, How.OWN_THE_MONITOR, Optional.empty());
		}
		if (site.primitive() == Primitive.FUTURE || site.primitive() == Primitive.LATCH) {
			List<DumpedThread> workers = busyWorkers(dump, requests, outerClass(site.frame()));
			return workers.isEmpty() ? new Holding(site, waiters, List.of(), How.NOT_IN_THE_DUMP, Optional.empty())
					: new Holding(site, waiters, workers, How.BUSY_WORKERS, unitOfWork(workers.get(0)));
		}
		return pastTheSite(site, waiters, dump, requests);
	}

	/**
	 * The busy workers of the pool that completes the waiters' work: of the non-request
	 * threads running an executor's task (not idle in its pool), grouped by name without
	 * their numbers, the largest group running a frame of {@code waitersClass}, the class
	 * the waiters wait in; else the largest group whose units of work are code outside
	 * the JDK, at work ({@link #working}). A JDK client's own threads (the HttpClient's
	 * workers) and the threads serving JMX run only the JDK's code: a wait for a client's
	 * answer is a connection's.
	 */
	static List<DumpedThread> busyWorkers(ThreadDump dump, Predicate<DumpedThread> requests, String waitersClass) {
		Map<String, List<DumpedThread>> running = new LinkedHashMap<>();
		Map<String, List<DumpedThread>> outsideTheJdk = new LinkedHashMap<>();
		for (DumpedThread thread : dump.matching(requests.negate())) {
			boolean worker = thread.frames().stream().anyMatch((frame) -> WORKERS.stream().anyMatch(frame::startsWith));
			boolean idle = Upstream.IDLE.stream().anyMatch(thread::hasFrame);
			if (!worker || idle || thread.hasFrame(Upstream.JMX_CONNECTION)) {
				continue;
			}
			String pool = pool(thread);
			if (thread.frames().stream().anyMatch((frame) -> outerClass(frame).equals(waitersClass))) {
				running.computeIfAbsent(pool, (name) -> new ArrayList<>()).add(thread);
			}
			else if (unitOfWork(thread).isPresent() && working(thread)) {
				outsideTheJdk.computeIfAbsent(pool, (name) -> new ArrayList<>()).add(thread);
			}
		}
		Map<String, List<DumpedThread>> pools = running.isEmpty() ? outsideTheJdk : running;
		return pools.values().stream().max(Comparator.comparingInt(List::size)).orElse(List.of());
	}

	/**
	 * Whether a worker works at its unit: on a core, or waiting for time or another
	 * process (a socket's answer), not for another thread of the service. A background
	 * task waits in its queue or monitor for good (Connector/J's abandoned-connection
	 * cleanup in a {@code ReferenceQueue}), and holds nothing a request waits for.
	 */
	private static boolean working(DumpedThread worker) {
		return WaitSite.of(worker).map((site) -> !site.primitive().heldByAThread()).orElse(true);
	}

	/**
	 * The frame that starts a worker's unit of work: the first outside the JDK above its
	 * pool's loop ({@code com.acme.Dispatcher$Call.run}); empty where its task runs only
	 * the JDK's code.
	 */
	static Optional<String> unitOfWork(DumpedThread worker) {
		List<String> outward = outermostFirst(worker);
		int loop = -1;
		for (int i = 0; i < outward.size(); i++) {
			String frame = outward.get(i);
			if (WORKERS.stream().anyMatch(frame::startsWith)) {
				loop = i;
			}
		}
		return outward.subList(loop + 1, outward.size()).stream().filter((frame) -> !WaitSite.isJdk(frame)).findFirst();
	}

	private static Holding pastTheSite(WaitSite site, List<DumpedThread> waiters, ThreadDump dump,
			Predicate<DumpedThread> requests) {
		List<String> path = sharedPath(site, waiters);
		Set<DumpedThread> waiting = new HashSet<>(waiters);
		Map<Integer, List<DumpedThread>> byDepth = new LinkedHashMap<>();
		for (DumpedThread thread : dump.matching(requests)) {
			if (waiting.contains(thread)) {
				continue;
			}
			// In the site's own method past the wait (a permit taken in the handler), or
			// gone on from a frame the waiters passed through.
			int depth = shared(path, outermostFirst(thread));
			if (depth > 0 && !WaitSite.isJdk(path.get(depth - 1))) {
				byDepth.computeIfAbsent(depth, (d) -> new ArrayList<>()).add(thread);
			}
		}
		return byDepth.entrySet()
			.stream()
			.max(Comparator.comparingInt((Map.Entry<Integer, List<DumpedThread>> e) -> e.getValue().size())
				.thenComparingInt(Map.Entry::getKey))
			.map((e) -> new Holding(site, waiters, e.getValue(), How.PAST_THE_SITE,
					Optional.of(path.get(e.getKey() - 1))))
			.orElseGet(() -> new Holding(site, waiters, List.of(), How.PAST_THE_SITE, Optional.empty()));
	}

	/**
	 * The frames every waiter shares from its stack's start to the site's own, outermost
	 * first.
	 */
	static List<String> sharedPath(WaitSite site, List<DumpedThread> waiters) {
		List<String> path = null;
		for (DumpedThread waiter : waiters) {
			List<String> frames = outermostFirst(waiter);
			int at = frames.lastIndexOf(site.frame());
			List<String> to = frames.subList(0, at + 1);
			path = (path == null) ? to : path.subList(0, shared(path, to));
		}
		return (path == null) ? List.of() : List.copyOf(path);
	}

	/** {@code com.acme.Shop$Quotes.lambda$get$0} → {@code com.acme.Shop}. */
	static String outerClass(String frame) {
		int dot = frame.lastIndexOf('.');
		String type = (dot > 0) ? frame.substring(0, dot) : frame;
		int nested = type.indexOf('$');
		return (nested > 0) ? type.substring(0, nested) : type;
	}

	private static int shared(List<String> path, List<String> frames) {
		int depth = 0;
		while (depth < path.size() && depth < frames.size() && path.get(depth).equals(frames.get(depth))) {
			depth++;
		}
		return depth;
	}

	private static List<String> outermostFirst(DumpedThread thread) {
		List<String> frames = new ArrayList<>(thread.frames());
		Collections.reverse(frames);
		return frames;
	}

	/**
	 * For busy workers, their pool in words: "threads `dispatcher-*` busy, each unit of
	 * work starting in `com.acme.Dispatcher$Call.run`".
	 */
	public String workers() {
		return "threads `" + pool().orElse("") + "*` busy"
				+ this.frame.map((frame) -> ", each unit of work starting in `" + frame + "`").orElse("");
	}

	/**
	 * The pool of busy workers, by their threads' name without its number:
	 * {@code dispatcher-}.
	 */
	public Optional<String> pool() {
		return (this.how != How.BUSY_WORKERS || this.holders.isEmpty()) ? Optional.empty()
				: Optional.of(pool(this.holders.get(0)));
	}

	/**
	 * A worker's pool by its name without its number ({@code dispatcher-}); a virtual or
	 * unnamed worker's, by its name without any digits.
	 */
	private static String pool(DumpedThread worker) {
		String pool = ThreadDumps.poolOf(worker);
		return pool.isEmpty() ? worker.name().replaceAll("[0-9]+", "#") : pool;
	}

	/**
	 * "requests wait in `com.acme.Licences.take` (a monitor's wait): 4 holders, request
	 * threads past `com.acme.LicenceController.quote`".
	 */
	@Override
	public String toString() {
		String holders = switch (this.how) {
			case NOT_IN_THE_DUMP -> "held by no thread of the dump";
			case PAST_THE_SITE -> this.holders.size() + " holders, request threads past "
					+ this.frame.map((frame) -> "`" + frame + "`").orElse("the same point");
			case BUSY_WORKERS -> this.holders.size() + " holders, " + workers();
			default -> this.holders.size() + " holders, " + this.how.words();
		};
		return this.waiters.size() + " requests wait in " + this.site + ": " + holders;
	}

}
