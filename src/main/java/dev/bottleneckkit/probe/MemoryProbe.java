package dev.bottleneckkit.probe;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.JvmOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

/**
 * Where a JVM in a container keeps its memory, read from two sides at once:
 * <ul>
 * <li>the JVM's own account, Native Memory Tracking's summary (read over JMX with the
 * {@code DiagnosticCommand} MBean, as {@code jcmd <pid> VM.native_memory summary} would):
 * how many platform threads exist and what their stacks commit, the heap, the total;</li>
 * <li>the container's account, its cgroup's anonymous memory ({@code anon} in cgroup v2's
 * {@code memory.stat}, {@code total_rss} in v1's): what a memory limit counts, without
 * the page cache.</li>
 * </ul>
 * Two readings around a load give the memory one waiting request costs, measured rather
 * than assumed.
 *
 * <pre>{@code
 * MemoryProbe memory = MemoryProbe.on(service);   // before start: adds NMT and JMX flags
 * service.start();
 * MemoryReading idle = memory.read();
 * // ... N requests in flight ...
 * long perRequest = (memory.read().containerBytes() - idle.containerBytes()) / N;
 * }</pre> NMT costs the JVM a little memory and CPU of its own (a few percent); it is on
 * only for containers a probe was made for.
 */
public final class MemoryProbe implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(MemoryProbe.class);

	private static final String NMT_FLAG = "-XX:NativeMemoryTracking=summary";

	private static final String[] CGROUP_MEMORY = { "sh", "-c",
			"cat /sys/fs/cgroup/memory.stat 2>/dev/null || cat /sys/fs/cgroup/memory/memory.stat" };

	private static final Pattern THREAD = Pattern.compile(
			"-\\s+Thread \\(reserved=\\d+KB, committed=(\\d+)KB\\)\\s*\\n\\s*\\(threads? #(\\d+)\\)\\s*\\n\\s*\\(stack: reserved=\\d+KB, committed=(\\d+)KB");

	private static final Pattern HEAP = Pattern.compile("-\\s+Java Heap \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

	private static final Pattern TOTAL = Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");

	private final GenericContainer<?> container;

	private final JmxAgent agent;

	private JMXConnector connector;

	private MemoryProbe(GenericContainer<?> container, JmxAgent agent) {
		this.container = container;
		this.agent = agent;
	}

	/**
	 * A probe on the JVM in {@code container}; call before the container starts (it turns
	 * on Native Memory Tracking and the JMX agent through {@code JAVA_TOOL_OPTIONS}).
	 */
	public static MemoryProbe on(GenericContainer<?> container) {
		JvmOptions.append(container, NMT_FLAG);
		return new MemoryProbe(container, JmxAgent.on(container));
	}

	/**
	 * Runs a full GC in the JVM (so that heap use is live data, e.g. the stacks of parked
	 * virtual threads), then reads both accounts.
	 */
	public MemoryReading read() {
		long heapUsed = liveHeap();
		return parse(this.agent.name(), nativeMemorySummary(), containerAnonymousBytes(), heapUsed);
	}

	/**
	 * A reading from NMT's summary text (JDK 21 and 25 formats) and the two numbers read
	 * beside it.
	 */
	static MemoryReading parse(String jvm, String summary, long containerBytes, long heapUsed) {
		Matcher thread = THREAD.matcher(summary);
		Matcher heap = HEAP.matcher(summary);
		Matcher total = TOTAL.matcher(summary);
		if (!thread.find() || !heap.find() || !total.find()) {
			throw new IllegalStateException(
					"Native Memory Tracking's summary of " + jvm + " has no Thread, Java Heap or Total line; it began: "
							+ summary.substring(0, Math.min(300, summary.length())).strip().replace('\n', ' '));
		}
		return new MemoryReading(containerBytes, Integer.parseInt(thread.group(2)),
				Long.parseLong(thread.group(3)) * 1024, Long.parseLong(thread.group(1)) * 1024,
				Long.parseLong(heap.group(1)) * 1024, heapUsed, Long.parseLong(total.group(1)) * 1024);
	}

	/** Disconnects; the container keeps running. */
	@Override
	public void close() {
		JmxAgent.disconnect(this.connector, this.agent.name());
	}

	private long liveHeap() {
		try {
			MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(connection(),
					ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
			memory.gc();
			return memory.getHeapMemoryUsage().getUsed();
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read the heap of " + this.agent.name() + ": " + ex, ex);
		}
	}

	private MBeanServerConnection connection() throws IOException {
		if (this.connector == null) {
			this.connector = this.agent.connect();
		}
		return this.connector.getMBeanServerConnection();
	}

	private String nativeMemorySummary() {
		try {
			Object text = connection().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
					"vmNativeMemory", new Object[] { new String[] { "summary", "scale=KB" } },
					new String[] { String[].class.getName() });
			return String.valueOf(text);
		}
		catch (IOException | JMException ex) {
			throw new IllegalStateException("cannot read Native Memory Tracking of " + this.agent.name() + ": " + ex,
					ex);
		}
	}

	private long containerAnonymousBytes() {
		try {
			ExecResult result = this.container.execInContainer(CGROUP_MEMORY);
			return parseAnonymous(result.getStdout());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read the memory of " + this.agent.name() + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while reading the memory of " + this.agent.name(), ex);
		}
	}

	/**
	 * cgroup v2: {@code anon N}; v1: {@code total_rss N} (or {@code rss N}), in bytes.
	 */
	static long parseAnonymous(String memoryStat) {
		long rss = -1;
		for (String line : memoryStat.split("\n")) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length != 2 || !fields[1].matches("\\d+")) {
				continue;
			}
			switch (fields[0]) {
				case "anon", "total_rss" -> {
					return Long.parseLong(fields[1]);
				}
				case "rss" -> rss = Long.parseLong(fields[1]);
				default -> {
				}
			}
		}
		if (rss < 0) {
			throw new IllegalStateException("no anon, total_rss or rss line in the container's memory.stat: '"
					+ memoryStat.substring(0, Math.min(200, memoryStat.length())).trim() + "'");
		}
		return rss;
	}

	/**
	 * One reading of a JVM's memory.
	 *
	 * @param containerBytes the container's anonymous memory (cgroup): what a memory
	 * limit counts
	 * @param platformThreads platform threads alive (NMT); virtual threads are not
	 * threads to the VM
	 * @param threadStacksCommitted memory committed for those threads' stacks (NMT)
	 * @param threadsCommitted everything NMT's Thread category commits (stacks and
	 * thread-local malloc)
	 * @param heapCommitted the Java heap's committed memory
	 * @param heapUsed live data on the heap after a full GC: where parked virtual threads
	 * keep their stacks
	 * @param jvmCommitted all memory the JVM committed (NMT total)
	 */
	public record MemoryReading(long containerBytes, int platformThreads, long threadStacksCommitted,
			long threadsCommitted, long heapCommitted, long heapUsed, long jvmCommitted) {

		/**
		 * "412 MB in the container; 1043 platform threads, stacks 108 MB; heap 40 MB live
		 * of 128 MB; …"
		 */
		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT,
					"%d MB in the container; %d platform threads, stacks %d MB; heap %d MB live of %d MB; JVM %d MB committed",
					containerBytes / 1_048_576, platformThreads, threadStacksCommitted / 1_048_576,
					heapUsed / 1_048_576, heapCommitted / 1_048_576, jvmCommitted / 1_048_576);
		}

	}

}
