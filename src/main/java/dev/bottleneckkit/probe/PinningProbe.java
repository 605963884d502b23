package dev.bottleneckkit.probe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.ReportDirectory;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import jdk.management.jfr.FlightRecorderMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * Records {@code jdk.VirtualThreadPinned} events, with stack traces, from a JVM: the
 * test's own, or one running in a container, with no change to the service in it. For a
 * container, the probe enables the JVM's JMX agent through {@code JAVA_TOOL_OPTIONS}
 * (which every HotSpot JVM reads), then drives JFR remotely through
 * {@link FlightRecorderMXBean}: no {@code jcmd} (Temurin JRE images have none), no JFR
 * flags, no file shared with the container. The JVM needs the modules
 * {@code jdk.management.jfr} and {@code java.management.rmi}, both in every Temurin JRE.
 *
 * <pre>{@code
 * PinningProbe pinning = PinningProbe.on(caller);      // any container: before caller.start()
 * caller.start();
 * pinning.start();
 * ... load ...
 * assertThat(pinning.read()).hasNoPinnedThreads();
 * }</pre>
 *
 * {@link #read()} takes a JFR snapshot, which holds everything recorded up to the call:
 * no sleeping or polling for a flush. Each read leaves its {@code .jfr} under
 * {@code target/bottleneck-report/jfr/}.
 */
public final class PinningProbe implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(PinningProbe.class);

	/** JFR's own default threshold: pins shorter than this are not recorded. */
	public static final Duration DEFAULT_THRESHOLD = Duration.ofMillis(20);

	private static final String EVENT = "jdk.VirtualThreadPinned";

	private static final ObjectName FLIGHT_RECORDER = objectName("jdk.management.jfr:type=FlightRecorder");

	private static final AtomicInteger reads = new AtomicInteger();

	private final String name;

	private final JmxAgent connection;

	private final Duration threshold;

	private FlightRecorderMXBean recorder;

	private JMXConnector connector;

	private long recordingId = -1;

	/** Where the last {@link #drain()} cut the events: the next one reads from here. */
	private java.time.Instant drainedUntil = java.time.Instant.MIN;

	private PinningProbe(String name, JmxAgent connection, Duration threshold) {
		this.name = name;
		this.connection = connection;
		this.threshold = threshold;
	}

	/** A probe on the test's own JVM. */
	public static PinningProbe inThisJvm(String name) {
		return new PinningProbe(name, null, DEFAULT_THRESHOLD);
	}

	/**
	 * A probe on the JVM in {@code container}: on a {@code ServiceContainer}, before or
	 * after it starts (it runs its JMX agent unless told not to); on any other container,
	 * before it starts: the probe enables the JVM's JMX agent through
	 * {@code JAVA_TOOL_OPTIONS} and publishes its port (see {@link JmxAgent} for the
	 * flags).
	 */
	public static PinningProbe on(GenericContainer<?> container) {
		return over(JmxAgent.on(container));
	}

	/**
	 * A probe on the JVM behind {@code agent}, reached over the agent alone (a remote
	 * engine's container, or any JVM whose agent listens with the kit's user).
	 */
	static PinningProbe over(JmxAgent agent) {
		return new PinningProbe(agent.name(), agent, DEFAULT_THRESHOLD);
	}

	/**
	 * Record only pins at least this long, 0 to 10 s (JFR's default: 20 ms). Call before
	 * {@link #start()}.
	 */
	public PinningProbe withThreshold(Duration threshold) {
		return new PinningProbe(this.name, this.connection,
				Knobs.between("threshold", threshold, Duration.ZERO, Duration.ofSeconds(10)));
	}

	/**
	 * Connects (waiting up to 30 s for the JVM's JMX agent) and starts recording pinned
	 * events.
	 */
	public PinningProbe start() {
		long started = System.nanoTime();
		if (this.connection == null) {
			this.recorder = ManagementFactory.getPlatformMXBean(FlightRecorderMXBean.class);
		}
		else {
			this.connector = this.connection.connect();
			this.recorder = proxy(this.connector);
		}
		this.drainedUntil = java.time.Instant.now();
		this.recordingId = newRecording();
		log.info("Pinning probe on {} recording (threshold {}), ready in {} ms", this.name, Knobs.human(this.threshold),
				(System.nanoTime() - started) / 1_000_000);
		return this;
	}

	private long newRecording() {
		long id = this.recorder.newRecording();
		this.recorder.setRecordingOptions(id, Map.of("name", "bottleneck-kit pinning", "disk", "true"));
		this.recorder.setRecordingSettings(id, Map.of(EVENT + "#enabled", "true", EVENT + "#stackTrace", "true",
				EVENT + "#threshold", this.threshold.toMillis() + " ms"));
		this.recorder.startRecording(id);
		return id;
	}

	/**
	 * The pinned events that ended since the last drain (or {@link #start()}), and a
	 * fresh recording from now on: a sweep reads each step's own events, and no recording
	 * grows through a whole run. The new recording starts before the old one is read, so
	 * an event ends in exactly one of them.
	 */
	public List<PinnedEvent> drain() {
		if (this.recordingId < 0) {
			throw new IllegalStateException("pinning probe on " + this.name + " was not started: call start() first");
		}
		java.time.Instant from = this.drainedUntil;
		java.time.Instant cut = java.time.Instant.now();
		long old = this.recordingId;
		this.recordingId = newRecording();
		this.drainedUntil = cut;
		try {
			// A snapshot holds every event of the chunks the running recordings span, not
			// only the old recording's: the window [last cut, this cut) keeps each event
			// once.
			return read(old).events().stream().filter((event) -> {
				java.time.Instant end = event.start().plus(event.duration());
				return !end.isBefore(from) && end.isBefore(cut);
			}).toList();
		}
		finally {
			closeRecording(old);
		}
	}

	/** Whether {@link #start()} has begun recording. */
	public boolean recording() {
		return this.recordingId >= 0;
	}

	/**
	 * Everything recorded since {@link #start()}: takes a JFR snapshot (which includes
	 * all data recorded before the call), copies it to
	 * {@code target/bottleneck-report/jfr/}, and reads its pinned events.
	 */
	public PinningReport read() {
		if (this.recordingId < 0) {
			throw new IllegalStateException("pinning probe on " + this.name + " was not started: call start() first");
		}
		return read(this.recordingId);
	}

	/** A snapshot of the recordings running now, of which {@code recording} is one. */
	private PinningReport read(long recording) {
		Path file = evidenceFile();
		long snapshot = this.recorder.takeSnapshot();
		try {
			long stream = this.recorder.openStream(snapshot, Map.of());
			try (OutputStream out = Files.newOutputStream(file)) {
				byte[] chunk;
				while ((chunk = this.recorder.readStream(stream)) != null) {
					out.write(chunk);
				}
			}
			finally {
				this.recorder.closeStream(stream);
			}
			return new PinningReport(file, parse(file));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot copy the JFR snapshot of " + this.name + " to " + file, ex);
		}
		finally {
			closeRecording(snapshot);
		}
	}

	/** Stops recording and disconnects; the container keeps running. */
	@Override
	public void close() {
		if (this.recordingId >= 0) {
			closeRecording(this.recordingId);
		}
		JmxAgent.disconnect(this.connector, this.name);
	}

	private void closeRecording(long id) {
		try {
			this.recorder.closeRecording(id);
		}
		catch (IOException | RuntimeException ex) {
			log.debug("Recording {} on {} already gone: {}", id, this.name, ex.toString());
		}
	}

	static List<PinnedEvent> parse(Path file) throws IOException {
		List<PinnedEvent> events = new ArrayList<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
			if (!EVENT.equals(event.getEventType().getName())) {
				continue;
			}
			List<String> frames = (event.getStackTrace() == null) ? List.of()
					: event.getStackTrace().getFrames().stream().map(PinningProbe::frame).toList();
			String thread = (event.getThread() != null) ? event.getThread().getJavaName() : "";
			events.add(new PinnedEvent(event.getStartTime(), event.getDuration(), (thread != null) ? thread : "",
					frames, field(event, "pinnedReason"), field(event, "blockingOperation")));
		}
		return events;
	}

	/** A string field JDK 24+ adds to the event; empty on a JDK that lacks it. */
	private static Optional<String> field(RecordedEvent event, String name) {
		if (!event.hasField(name)) {
			return Optional.empty();
		}
		Object value = event.getValue(name);
		return (value == null || String.valueOf(value).isBlank()) ? Optional.empty()
				: Optional.of(String.valueOf(value));
	}

	private static String frame(RecordedFrame frame) {
		String where = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
		return (frame.getLineNumber() > 0) ? where + ":" + frame.getLineNumber() : where;
	}

	private Path evidenceFile() {
		return ReportDirectory.subdirectory("jfr")
			.resolve(this.name.replaceAll("[^A-Za-z0-9._-]", "_") + "-pinning-" + reads.incrementAndGet() + ".jfr");
	}

	private static FlightRecorderMXBean proxy(JMXConnector connector) {
		try {
			MBeanServerConnection server = connector.getMBeanServerConnection();
			return JMX.newMXBeanProxy(server, FLIGHT_RECORDER, FlightRecorderMXBean.class);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static ObjectName objectName(String name) {
		try {
			return new ObjectName(name);
		}
		catch (javax.management.MalformedObjectNameException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

}
