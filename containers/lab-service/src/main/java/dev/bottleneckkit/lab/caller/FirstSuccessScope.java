package dev.bottleneckkit.lab.caller;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Answers with the first subtask that succeeds. {@link #shutdownOnSuccess()} is
 * {@code StructuredTaskScope.ShutdownOnSuccess} (in JDK 25
 * {@code Joiner.anySuccessfulResultOrThrow()}): the first success interrupts the others,
 * which are abandoned. {@link #waitingForAll()} is the join it is compared with: the same
 * answer, but only once every subtask has ended.
 *
 * @param <T> what the subtasks answer
 */
final class FirstSuccessScope<T> extends VirtualThreadScope {

	private final boolean shutdownOnSuccess;

	private final AtomicReference<T> firstSuccess = new AtomicReference<>();

	private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

	private FirstSuccessScope(boolean shutdownOnSuccess) {
		this.shutdownOnSuccess = shutdownOnSuccess;
	}

	static <T> FirstSuccessScope<T> shutdownOnSuccess() {
		return new FirstSuccessScope<>(true);
	}

	static <T> FirstSuccessScope<T> waitingForAll() {
		return new FirstSuccessScope<>(false);
	}

	@Override
	boolean shutsDownOnFailure(Throwable failure) {
		this.firstFailure.compareAndSet(null, failure);
		return false;
	}

	@Override
	@SuppressWarnings("unchecked")
	boolean shutsDownOnSuccess(Object value) {
		return this.firstSuccess.compareAndSet(null, (T) value) && this.shutdownOnSuccess;
	}

	/**
	 * Joins the scope and answers the first success; when every subtask failed, throws
	 * the first failure.
	 */
	T result() throws Exception {
		joinAll();
		T success = this.firstSuccess.get();
		if (success != null) {
			return success;
		}
		Throwable failure = this.firstFailure.get();
		if (failure instanceof Exception ex) {
			throw ex;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		throw new IllegalStateException("no subtask was forked");
	}

}
