package dev.bottleneckkit.sweep.internal.waits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.probe.ThreadDump.DumpedThread;

/**
 * Where a thread waits: the primitive it is blocked in and the innermost frame of the
 * service or a library above the JDK's frames, the frame a person reads as "where":
 * {@code com.acme.Licences.take} waiting in {@code Object.wait}.
 *
 * @param primitive what it is blocked in
 * @param frame the innermost frame above the JDK's, {@code class.method}
 */
public record WaitSite(Primitive primitive, String frame) {

	/** Packages of the JDK: frames the primitive's, not the code that waits. */
	static final List<String> JDK = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

	/**
	 * Where {@code thread} waits, or nothing when it runs (or, on JDK 21–24, enters a
	 * monitor: only JDK 25's dumps say a thread is blocked there).
	 */
	public static Optional<WaitSite> of(DumpedThread thread) {
		List<String> frames = thread.frames();
		int outside = 0;
		while (outside < frames.size() && isJdk(frames.get(outside))) {
			outside++;
		}
		if (outside == frames.size()) {
			return Optional.empty();
		}
		String frame = frames.get(outside);
		if (thread.state().filter("BLOCKED"::equals).isPresent() && thread.blockedOn().isPresent()) {
			return Optional.of(new WaitSite(Primitive.MONITOR, frame));
		}
		List<String> jdk = new ArrayList<>(frames.subList(0, outside));
		Collections.reverse(jdk);
		return Optional.ofNullable(Primitive.of(jdk)).map((primitive) -> new WaitSite(primitive, frame));
	}

	/** Whether {@code frame} is the JDK's. */
	static boolean isJdk(String frame) {
		return JDK.stream().anyMatch(frame::startsWith);
	}

	/** The class of the frame: {@code com.acme.Licences}. */
	public String className() {
		int dot = this.frame.lastIndexOf('.');
		return (dot > 0) ? this.frame.substring(0, dot) : this.frame;
	}

	/** "{@code com.acme.Licences.take} (a monitor's wait)". */
	@Override
	public String toString() {
		return "`" + this.frame + "` (" + this.primitive.words() + ")";
	}

}
