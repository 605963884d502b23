package dev.bottleneckkit.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What puts a container back as its test configured it, deferred until something uses the
 * container again. A sweep's confirmation leaves the service running with its knob
 * turned: when no test uses the service after it, the class ends without a second start;
 * when one does, its first call for a mapped port starts the service as it was, before
 * any request.
 */
public final class PutBack {

	private static final Map<Object, Runnable> PENDING = Collections.synchronizedMap(new IdentityHashMap<>());

	private PutBack() {
	}

	/**
	 * {@code putBack} runs before {@code container}'s next use, unless it stops first.
	 */
	public static void beforeNextUse(Object container, Runnable putBack) {
		PENDING.put(container, putBack);
	}

	/**
	 * Puts {@code container} back if a put-back is pending: called on its use. The
	 * put-back is taken off first, so the calls it makes itself (a start asks for mapped
	 * ports) pass straight through.
	 */
	public static void ifPending(Object container) {
		Runnable putBack = PENDING.remove(container);
		if (putBack != null) {
			putBack.run();
		}
	}

	/**
	 * Forgets {@code container}'s put-back: it stops, so nothing will use it as it is.
	 */
	public static void discard(Object container) {
		PENDING.remove(container);
	}

}
