package dev.bottleneckkit.lab.caller;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What {@code StructuredTaskScope} (JDK 21 preview, JEP 453; reshaped in JDK 25) does for
 * every policy, on final APIs only, so the lab runs unchanged on the Java 21 and Java 25
 * images without {@code --enable-preview}:
 * <ul>
 * <li>each subtask runs in its own virtual thread;</li>
 * <li>when the policy says so ({@link #shutsDownOnFailure}, {@link #shutsDownOnSuccess}),
 * the scope shuts down: every other subtask is interrupted. A virtual thread blocked on a
 * socket that is interrupted has its socket closed, so an HTTP call in flight is
 * abandoned and the server sees its client go;</li>
 * <li>{@link #joinAll()} returns once every subtask has ended, so no subtask outlives the
 * scope.</li>
 * </ul>
 */
abstract class VirtualThreadScope implements AutoCloseable {

	private static final ThreadFactory VIRTUAL = Thread.ofVirtual().name("fan-out-", 0).factory();

	private final ReentrantLock lock = new ReentrantLock();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean shutDown;

	/**
	 * Starts {@code task} in a new virtual thread; its result is readable once the scope
	 * was joined.
	 */
	final <T> Supplier<T> fork(Callable<T> task) {
		AtomicReference<T> result = new AtomicReference<>();
		Thread thread = VIRTUAL.newThread(() -> {
			T value;
			try {
				value = task.call();
			}
			catch (Throwable ex) {
				if (shutsDownOnFailure(ex)) {
					shutdown();
				}
				return;
			}
			result.set(value);
			if (shutsDownOnSuccess(value)) {
				shutdown();
			}
		});
		this.lock.lock();
		try {
			this.threads.add(thread);
			thread.start();
			if (this.shutDown) {
				thread.interrupt();
			}
		}
		finally {
			this.lock.unlock();
		}
		return result::get;
	}

	/** A subtask failed with {@code failure}: should the others be interrupted? */
	abstract boolean shutsDownOnFailure(Throwable failure);

	/** A subtask answered {@code value}: should the others be interrupted? */
	abstract boolean shutsDownOnSuccess(Object value);

	/**
	 * Waits for every subtask to end: normally, by failing, or by being interrupted after
	 * a shutdown.
	 */
	final void joinAll() throws InterruptedException {
		for (Thread thread : forked()) {
			thread.join();
		}
	}

	/**
	 * Interrupts subtasks still running (the owner gave up) and waits for them, as the
	 * JDK's scope does.
	 */
	@Override
	public void close() throws InterruptedException {
		shutdown();
		joinAll();
	}

	private void shutdown() {
		this.shutDown = true;
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
