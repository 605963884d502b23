package dev.bottleneckkit.probe;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

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
	 */
	public record DumpedThread(String name, List<String> frames) {

		private static final String ACQUIRE = "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire";

		/** Whether a frame is {@code classOrMethod} or a method of it. */
		public boolean hasFrame(String classOrMethod) {
			return this.frames.stream().anyMatch((frame) -> isOf(frame, classOrMethod));
		}

		/**
		 * Whether it is parked acquiring a lock, and the first frame above the lock code
		 * is {@code classOrMethod}'s.
		 */
		public boolean waitsForLockIn(String classOrMethod) {
			String taken = lockTakenIn();
			return taken != null && isOf(taken, classOrMethod);
		}

		/**
		 * When it is parked acquiring a lock, the first frame above the lock code: where
		 * the lock is taken
		 * ({@code ch.qos.logback.core.OutputStreamAppender.writeBytes}); null when it
		 * waits for no lock.
		 */
		public String lockTakenIn() {
			boolean acquiring = false;
			for (String frame : this.frames) {
				if (frame.startsWith(ACQUIRE)) {
					acquiring = true;
				}
				else if (acquiring && !frame.startsWith("java.util.concurrent.locks.")) {
					return frame;
				}
			}
			return null;
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
