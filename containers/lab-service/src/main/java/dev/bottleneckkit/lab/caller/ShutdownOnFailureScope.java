package dev.bottleneckkit.lab.caller;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The behaviour of {@code StructuredTaskScope.ShutdownOnFailure} (in JDK 25
 * {@code StructuredTaskScope.open()} with its default joiner): the first subtask to fail
 * shuts the scope down, interrupting its siblings, and {@link #throwIfFailed()} rethrows
 * that failure.
 */
final class ShutdownOnFailureScope extends VirtualThreadScope {

	private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

	@Override
	boolean shutsDownOnFailure(Throwable failure) {
		return this.firstFailure.compareAndSet(null, failure);
	}

	@Override
	boolean shutsDownOnSuccess(Object value) {
		return false;
	}

	/**
	 * Waits for every subtask to end: normally, by failing, or by being interrupted after
	 * a sibling failed.
	 */
	ShutdownOnFailureScope join() throws InterruptedException {
		joinAll();
		return this;
	}

	/** Throws the first subtask failure as it was, when there was one. */
	void throwIfFailed() throws Exception {
		Throwable failure = this.firstFailure.get();
		if (failure instanceof Exception ex) {
			throw ex;
		}
		if (failure instanceof Error error) {
			throw error;
		}
	}

}
