package dev.bottleneckkit.probe;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The thread dump probe on the test's own JVM: it sees virtual threads and where they
 * wait.
 */
class ThreadDumpProbeTest {

	static final ReentrantLock lock = new ReentrantLock();

	@Test
	void seesVirtualThreadsWaitingForALockAndWhereTheyAskedForIt() throws Exception {
		CountDownLatch done = new CountDownLatch(1);
		lock.lock();
		try {
			for (int i = 0; i < 3; i++) {
				Thread.ofVirtual().name("waiter-" + i).start(() -> WaitingFixture.waitForTheLock(done));
			}
			await().until(() -> lock.getQueueLength() == 3);

			ThreadDump dump = ThreadDumpProbe.inThisJvm("test-jvm").take();

			assertThat(dump.file()).exists();
			assertThat(dump.waitingForLockIn(WaitingFixture.class.getName())).extracting(ThreadDump.DumpedThread::name)
				.containsExactlyInAnyOrder("waiter-0", "waiter-1", "waiter-2");
			assertThat(dump.in(WaitingFixture.class.getName() + ".waitForTheLock")).hasSize(3);
			assertThat(dump.waitingForLockIn("org.junit")).as("only the lock's own caller counts").isEmpty();
			assertThat(dump.whereAre((thread) -> thread.name().startsWith("waiter-")))
				.containsExactly(java.util.Map.entry(WaitingFixture.class.getName() + ".waitForTheLock", 3L));
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void readsFramesWithoutModuleFileOrLine() {
		assertThat(ThreadDump.frame("java.base/java.lang.Thread.sleep(Thread.java:509)"))
			.isEqualTo("java.lang.Thread.sleep");
		assertThat(ThreadDump.frame("com.example.App.main(App.java:3)")).isEqualTo("com.example.App.main");
	}

	static final class WaitingFixture {

		static void waitForTheLock(CountDownLatch done) {
			lock.lock();
			lock.unlock();
			done.countDown();
		}

	}

}
