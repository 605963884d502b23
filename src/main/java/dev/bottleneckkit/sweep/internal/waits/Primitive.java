package dev.bottleneckkit.sweep.internal.waits;

import java.util.List;

/**
 * What a waiting thread is blocked in, as the JDK's own frames (or, from JDK 25 on, its
 * state) show it. A thread of any kind blocks in one of these; which library or service
 * code sits above it is the {@link WaitSite}'s frame.
 */
public enum Primitive {

	/** Entering a {@code synchronized} block or method another thread is in. */
	MONITOR("a monitor", List.of()),

	/** {@code Object.wait}: a hand-written pool, a client's future. */
	OBJECT_WAIT("a monitor's wait", List.of("java.lang.Object.wait")),

	/** A {@code Semaphore}'s permit. */
	SEMAPHORE("a semaphore", List.of("java.util.concurrent.Semaphore.")),

	/** A latch, barrier or phaser. */
	LATCH("a latch",
			List.of("java.util.concurrent.CountDownLatch.", "java.util.concurrent.CyclicBarrier.",
					"java.util.concurrent.Phaser.")),

	/** A blocking queue's take, poll or put. */
	QUEUE("a queue",
			List.of("java.util.concurrent.ArrayBlockingQueue.", "java.util.concurrent.LinkedBlockingQueue.",
					"java.util.concurrent.LinkedBlockingDeque.", "java.util.concurrent.PriorityBlockingQueue.",
					"java.util.concurrent.SynchronousQueue.", "java.util.concurrent.SynchronousQueue$",
					"java.util.concurrent.LinkedTransferQueue.", "java.util.concurrent.DelayQueue.")),

	/** Another thread's work: a future's join or get, a structured scope's join. */
	FUTURE("a future",
			List.of("java.util.concurrent.CompletableFuture.", "java.util.concurrent.FutureTask.",
					"java.util.concurrent.ForkJoinTask.", "java.util.concurrent.StructuredTaskScope.")),

	/** A lock: {@code ReentrantLock}, a read-write lock, a {@code StampedLock}. */
	LOCK("a lock",
			List.of("java.util.concurrent.locks.ReentrantLock.", "java.util.concurrent.locks.ReentrantLock$",
					"java.util.concurrent.locks.ReentrantReadWriteLock$", "java.util.concurrent.locks.StampedLock.",
					"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire")),

	/** A lock's condition: {@code Condition.await}. */
	CONDITION("a condition",
			List.of("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.",
					"java.util.concurrent.locks.AbstractQueuedLongSynchronizer$ConditionObject.")),

	/** A socket's read: an answer from another process. */
	SOCKET_READ("a socket read", List.of("sun.nio.ch.NioSocketImpl.read", "sun.nio.ch.NioSocketImpl.timedRead",
			"sun.nio.ch.NioSocketImpl.implRead", "sun.nio.ch.SocketChannelImpl.read", "java.net.SocketInputStream.read",
			"java.net.Socket$SocketInputStream.read", "sun.security.ssl.SSLSocketImpl$AppInputStream.read")),

	/** {@code Thread.sleep}: the request's own time, no one else's. */
	SLEEP("a sleep", List.of("java.lang.Thread.sleep")),

	/** Parked with nothing else on the stack to say for what. */
	PARK("a park", List.of("java.util.concurrent.locks.LockSupport.park", "java.lang.VirtualThread.park"));

	private final String words;

	private final List<String> frames;

	Primitive(String words, List<String> frames) {
		this.words = words;
		this.frames = frames;
	}

	/** What a person calls it: "a semaphore". */
	public String words() {
		return this.words;
	}

	/**
	 * Whether another thread holds what a thread blocked in it waits for: a monitor, a
	 * lock, a permit, a queue's object, a future's work. A sleep, a park and a socket
	 * read wait for time or another process.
	 */
	public boolean heldByAThread() {
		return this != SLEEP && this != PARK && this != SOCKET_READ;
	}

	/** Whether {@code frame} is one of its own JDK frames. */
	boolean claims(String frame) {
		return this.frames.stream().anyMatch(frame::startsWith);
	}

	/**
	 * The primitive of the JDK's frames a thread is blocked in, the outermost recognised
	 * first: a queue's take waits in a condition, and is a queue's; a semaphore's acquire
	 * parks in its synchronizer, and is a semaphore's.
	 */
	static Primitive of(List<String> jdkFramesOutermostFirst) {
		for (String frame : jdkFramesOutermostFirst) {
			for (Primitive primitive : values()) {
				if (primitive.claims(frame)) {
					return primitive;
				}
			}
		}
		return null;
	}

}
