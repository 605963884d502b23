package dev.bottleneckkit.lab.caller;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The behaviour of {@code StructuredTaskScope.ShutdownOnFailure} (JDK 21 preview, JEP 453; in JDK 25
 * {@code StructuredTaskScope.open()} with its default joiner) on final APIs only, so the lab runs unchanged on
 * the Java 21 and Java 25 images without {@code --enable-preview} (the preview API differs between the two):
 * <ul>
 * <li>each subtask runs in its own virtual thread;</li>
 * <li>the first subtask to fail shuts the scope down: every other subtask is interrupted. A virtual thread
 * blocked on a socket that is interrupted has its socket closed, so an HTTP call in flight is abandoned and
 * the server sees its client go;</li>
 * <li>{@link #join()} returns once every subtask has ended, so no subtask outlives the scope.</li>
 * </ul>
 */
final class ShutdownOnFailureScope implements AutoCloseable {

	private static final ThreadFactory VIRTUAL = Thread.ofVirtual().name("fan-out-", 0).factory();

	private final ReentrantLock lock = new ReentrantLock();

	private final List<Thread> threads = new ArrayList<>();

	private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

	/** Starts {@code task} in a new virtual thread; its result is readable once {@link #join()} returned. */
	<T> Supplier<T> fork(Callable<T> task) {
		AtomicReference<T> result = new AtomicReference<>();
		Thread thread = VIRTUAL.newThread(() -> {
			try {
				result.set(task.call());
			}
			catch (Throwable ex) {
				if (this.firstFailure.compareAndSet(null, ex)) {
					shutdown();
				}
			}
		});
		this.lock.lock();
		try {
			this.threads.add(thread);
			thread.start();
			if (this.firstFailure.get() != null) {
				thread.interrupt();
			}
		}
		finally {
			this.lock.unlock();
		}
		return result::get;
	}

	/** Waits for every subtask to end: normally, by failing, or by being interrupted after a sibling failed. */
	ShutdownOnFailureScope join() throws InterruptedException {
		for (Thread thread : forked()) {
			thread.join();
		}
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

	/** Interrupts subtasks still running (the owner gave up) and waits for them, as the JDK's scope does. */
	@Override
	public void close() throws InterruptedException {
		shutdown();
		join();
	}

	private void shutdown() {
		for (Thread thread : forked()) {
			if (thread != Thread.currentThread() && thread.isAlive()) {
				thread.interrupt();
			}
		}
	}

	private List<Thread> forked() {
		this.lock.lock();
		try {
			return List.copyOf(this.threads);
		}
		finally {
			this.lock.unlock();
		}
	}

}
