package dev.bottleneckkit.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.bottleneckkit.internal.Json;

/**
 * One thread dump of a JVM, virtual threads included, as {@link ThreadDumpProbe} took it:
 * where each thread was at that instant. The JSON file it was read from stays beside the
 * report.
 *
 * @param file the dump as the JVM wrote it ({@code HotSpotDiagnosticMXBean.dumpThreads},
 * JSON)
 * @param threads every thread in it
 */
public record ThreadDump(Path file, List<DumpedThread> threads) {

	/**
	 * Reads a dump the JVM wrote in JSON ({@code HotSpotDiagnosticMXBean.dumpThreads},
	 * {@code jcmd <pid> Thread.dump_to_file -format=json}), JDK 21 or later.
	 */
	public static ThreadDump read(Path file) {
		return new ThreadDump(file, parse(file));
	}

	/**
	 * Reads JDK 21's and 25's JSON format:
	 * {@code threadDump.threadContainers[].threads[].{name, stack}}.
	 */
	static List<ThreadDump.DumpedThread> parse(Path file) {
		Object root;
		try {
			root = Json.parse(Files.readString(file));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the thread dump " + file, ex);
		}
		List<ThreadDump.DumpedThread> threads = new ArrayList<>();
		for (Object container : Json.array(root, "threadDump", "threadContainers")) {
			for (Object thread : Json.array(container, "threads")) {
				List<String> frames = new ArrayList<>();
				for (Object frame : Json.array(thread, "stack")) {
					frames.add(frame(String.valueOf(frame)));
				}
				List<String> owned = new ArrayList<>();
				for (Object monitors : Json.array(thread, "monitorsOwned")) {
					for (Object lock : Json.array(monitors, "locks")) {
						owned.add(String.valueOf(lock));
					}
				}
				threads.add(new ThreadDump.DumpedThread(Json.string(thread, "", "name"), List.copyOf(frames),
						optional(Json.string(thread, "", "state")), optional(Json.string(thread, "", "blockedOn")),
						optional(Json.string(thread, "", "parkBlocker", "object")),
						optional(Json.string(thread, "", "waitingOn")), List.copyOf(owned)));
			}
		}
		return threads;
	}

	private static Optional<String> optional(String value) {
		return value.isEmpty() ? Optional.empty() : Optional.of(value);
	}

	/**
	 * {@code java.base/java.lang.Thread.sleep(Thread.java:509)} →
	 * {@code java.lang.Thread.sleep}.
	 */
	static String frame(String frame) {
		String where = frame.contains("(") ? frame.substring(0, frame.indexOf('(')) : frame;
		int module = where.indexOf('/');
		return (module >= 0) ? where.substring(module + 1) : where;
	}

	/**
	 * Threads whose stack holds a frame of {@code classOrMethod} (a class name, or
	 * class.method).
	 */
	public List<DumpedThread> in(String classOrMethod) {
		return matching((thread) -> thread.hasFrame(classOrMethod));
	}

	/**
	 * Threads waiting to acquire a {@code java.util.concurrent} lock that
	 * {@code classOrMethod} asked for: parked in
	 * {@code AbstractQueuedSynchronizer.acquire} below a frame of {@code classOrMethod}.
	 */
	public List<DumpedThread> waitingForLockIn(String classOrMethod) {
		return matching((thread) -> thread.waitsForLockIn(classOrMethod));
	}

	/** The threads {@code predicate} accepts, in dump order. */
	public List<DumpedThread> matching(Predicate<DumpedThread> predicate) {
		return this.threads.stream().filter(predicate).toList();
	}

	/**
	 * Where the threads matching {@code predicate} are, by their first frame outside the
	 * JDK, most crowded first: a one-line answer to "what are they all doing?".
	 */
	public Map<String, Long> whereAre(Predicate<DumpedThread> predicate) {
		Map<String, Long> where = new LinkedHashMap<>();
		matching(predicate).stream()
			.collect(java.util.stream.Collectors.groupingBy(DumpedThread::firstFrameOutsideJdk,
					java.util.stream.Collectors.counting()))
			.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.forEach((entry) -> where.put(entry.getKey(), entry.getValue()));
		return where;
	}

	/**
	 * One thread of the dump.
	 *
	 * @param name its name ({@code ""} for an unnamed virtual thread)
	 * @param frames its stack, innermost first, as {@code class.method} without module,
	 * file or line
	 * @param state its state as JDK 25+ dumps it ({@code BLOCKED}, {@code WAITING}, …);
	 * empty on JDK 21–24
	 * @param blockedOn the monitor it is blocked on, as JDK 25+ dumps it
	 * @param parkBlocker the object it is parked on, as JDK 25+ dumps it
	 * ({@code java.util.concurrent.locks.ReentrantLock$NonfairSync@1ab3a8c8})
	 * @param waitingOn the monitor it waits on in {@code Object.wait}, as JDK 25+ dumps
	 * it
	 * @param monitorsOwned the monitors it holds, as JDK 25+ dumps them; empty on JDK
	 * 21–24
	 */
	public record DumpedThread(String name, List<String> frames, Optional<String> state, Optional<String> blockedOn,
			Optional<String> parkBlocker, Optional<String> waitingOn, List<String> monitorsOwned) {

		/** A thread as JDK 21 dumps it: name and stack. */
		public DumpedThread(String name, List<String> frames) {
			this(name, frames, Optional.empty(), Optional.empty(), Optional.empty());
		}

		/**
		 * A thread with its state and what it is blocked or parked on, owning nothing.
		 */
		public DumpedThread(String name, List<String> frames, Optional<String> state, Optional<String> blockedOn,
				Optional<String> parkBlocker) {
			this(name, frames, state, blockedOn, parkBlocker, Optional.empty(), List.of());
		}

		private static final String LOCKS = "java.util.concurrent.locks.";

		/**
		 * Frames of an exclusive lock being acquired: a thread parked under one waits for
		 * the lock's holder.
		 */
		private static final List<String> LOCK_ACQUIRE = List.of(LOCKS + "ReentrantLock", LOCKS + "ReentrantLock$",
				LOCKS + "ReentrantReadWriteLock$WriteLock", LOCKS + "StampedLock.writeLock",
				LOCKS + "StampedLock.acquireWrite");

		/**
		 * Frames of a thread waiting for its own answer (a future, a latch, a reactive
		 * {@code block()}): parked, yet no lock's holder keeps it waiting.
		 */
		static final List<String> OWN_ANSWER = List.of("java.util.concurrent.CountDownLatch.await",
				"java.util.concurrent.CompletableFuture.get", "java.util.concurrent.CompletableFuture.join",
				"java.util.concurrent.CompletableFuture.waitingGet", "java.util.concurrent.CompletableFuture.timedGet",
				"java.util.concurrent.FutureTask.get", "java.util.concurrent.FutureTask.awaitDone",
				"reactor.core.publisher.BlockingSingleSubscriber.blockingGet",
				"reactor.core.publisher.BlockingIterable", "org.apache.hc.core5.concurrent.BasicFuture.get",
				"java.util.concurrent.SynchronousQueue", "java.util.concurrent.Exchanger.exchange");

		/**
		 * Whether it is a virtual thread: its stack begins in {@code VirtualThread.run}.
		 * (Tomcat names its virtual request threads {@code tomcat-handler-N}, as if they
		 * were a pool's.)
		 */
		public boolean virtual() {
			return this.frames.stream().anyMatch((frame) -> frame.startsWith("java.lang.VirtualThread.run"));
		}

		/** Whether a frame is {@code classOrMethod} or a method of it. */
		public boolean hasFrame(String classOrMethod) {
			return this.frames.stream().anyMatch((frame) -> isOf(frame, classOrMethod));
		}

		/**
		 * Whether it waits for a lock another thread holds: blocked on a monitor, or
		 * parked acquiring a {@code ReentrantLock}, a write lock or a {@code StampedLock}
		 * write. A thread parked for its own answer ({@link #waitsForItsOwnAnswer()})
		 * does not.
		 */
		public boolean waitsForLock() {
			if (this.state.filter("BLOCKED"::equals).isPresent() && this.blockedOn.isPresent()) {
				return true;
			}
			if (waitsForItsOwnAnswer()) {
				return false;
			}
			if (this.parkBlocker.filter((blocker) -> blocker.startsWith(LOCKS + "Reentrant")).isPresent()) {
				return true;
			}
			return this.frames.stream().anyMatch((frame) -> LOCK_ACQUIRE.stream().anyMatch(frame::startsWith));
		}

		/**
		 * Whether it is parked waiting for its own answer: a {@code CountDownLatch} under
		 * Reactor's {@code block()}, a {@code Future.get},
		 * {@code CompletableFuture.join}. Many such threads are many requests waiting for
		 * I/O, not a crowd at one lock.
		 */
		public boolean waitsForItsOwnAnswer() {
			return this.frames.stream().anyMatch((frame) -> OWN_ANSWER.stream().anyMatch(frame::startsWith));
		}

		/**
		 * Whether it is parked acquiring a lock, and the first frame above the lock code
		 * is {@code classOrMethod}'s.
		 */
		public boolean waitsForLockIn(String classOrMethod) {
			return lockTakenIn().filter((taken) -> isOf(taken, classOrMethod)).isPresent();
		}

		/**
		 * When it waits for a lock ({@link #waitsForLock()}), where the lock is taken:
		 * the first frame above the lock code
		 * ({@code ch.qos.logback.core.OutputStreamAppender.writeBytes}), or for a monitor
		 * the method it is blocked in.
		 */
		public Optional<String> lockTakenIn() {
			if (!waitsForLock()) {
				return Optional.empty();
			}
			if (this.state.filter("BLOCKED"::equals).isPresent() && !this.frames.isEmpty()) {
				return Optional.of(this.frames.get(0));
			}
			// The first frame past the lock code: whatever parks the thread below it (a
			// virtual thread's scheduler frames on JDK 21) lies under the last lock
			// frame.
			int last = -1;
			for (int i = 0; i < this.frames.size(); i++) {
				if (this.frames.get(i).startsWith(LOCKS)) {
					last = i;
				}
			}
			if (last >= 0 && last + 1 < this.frames.size()) {
				return Optional.of(this.frames.get(last + 1));
			}
			return Optional.empty();
		}

		/**
		 * The innermost frame that is not the JDK's ({@code java.}, {@code jdk.},
		 * {@code sun.}), or the top frame.
		 */
		public String firstFrameOutsideJdk() {
			return Frames.firstOutsideJdk(this.frames);
		}

		private static boolean isOf(String frame, String classOrMethod) {
			return frame.equals(classOrMethod) || frame.startsWith(classOrMethod + ".")
					|| frame.startsWith(classOrMethod + "$");
		}

	}

}
