package dev.bottleneckkit.sweep.internal.waits;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.bottleneckkit.internal.Json;

/**
 * Records a thread dump of each wait family the waits reading knows, on the JVM it runs
 * in: five request threads ({@code request-N}, platform or virtual) at a resource of two,
 * each holder in {@link Handler#callDownstream} for a minute, the others waiting. The
 * dumps are the fixtures of {@link HoldingTest}, one set per JDK:
 *
 * <pre>
 * java -cp target/test-classes:target/classes dev.bottleneckkit.sweep.internal.waits.WaitFamilies \
 *     src/test/resources/dev/bottleneckkit/sweep/internal/waits/jdk25
 * docker run --rm -v $PWD/target:/t:ro -v $PWD/src/test/resources/dev/bottleneckkit/sweep/internal/waits/jdk21:/out \
 *     bottleneck-kit/temurin:21-jre java -cp /t/test-classes:/t/classes \
 *     dev.bottleneckkit.sweep.internal.waits.WaitFamilies /out
 * </pre>
 */
public final class WaitFamilies {

	static final int REQUESTS = 5;

	static final int HOLDERS = 2;

	private WaitFamilies() {
	}

	public static void main(String[] args) throws Exception {
		Path dir = Path.of(args[0]);
		Files.createDirectories(dir);
		for (boolean virtual : new boolean[] { false, true }) {
			String threads = virtual ? "virtual" : "platform";
			record(dir, "monitor-" + threads, virtual, new Handler.Monitor());
			record(dir, "object-wait-" + threads, virtual, new Handler.Licences());
			record(dir, "lock-" + threads, virtual, new Handler.Locked());
			record(dir, "condition-" + threads, virtual, new Handler.Conditioned());
			record(dir, "semaphore-" + threads, virtual, new Handler.Permits());
			record(dir, "queue-" + threads, virtual, new Handler.Handles());
			record(dir, "future-" + threads, virtual, new Handler.Joined());
			record(dir, "latch-" + threads, virtual, new Handler.Latched());
			try (Handler.Silent silent = new Handler.Silent()) {
				record(dir, "socket-read-" + threads, virtual, silent);
			}
		}
		System.exit(0);
	}

	private static void record(Path dir, String name, boolean virtual, Handler handler) throws Exception {
		List<Thread> requests = new ArrayList<>();
		for (int i = 1; i <= REQUESTS; i++) {
			Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon();
			requests.add(builder.name("request-" + i).start(() -> {
				try {
					handler.serve();
				}
				catch (Exception ex) {
					// interrupted once the dump is taken
				}
			}));
		}
		Thread.sleep(500);
		Path file = dir.resolve(name + ".json");
		Files.deleteIfExists(file);
		ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
			.dumpThreads(file.toAbsolutePath().toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
		requests.forEach(Thread::interrupt);
		handler.stop();
		for (Thread request : requests) {
			if (!request.join(java.time.Duration.ofSeconds(5))) {
				throw new IllegalStateException(name + ": " + request.getName() + " did not end");
			}
		}
		keepTheFamilysThreads(file);
		System.out.println("recorded " + file);
	}

	/**
	 * Keeps the requests' and the workers' threads in the dump, in its own format: the
	 * JVM's own (the JIT's, the reference handler) say nothing of the family.
	 */
	private static void keepTheFamilysThreads(Path file) throws Exception {
		Object dump = Json.parse(Files.readString(file));
		List<Object> containers = new ArrayList<>();
		for (Object container : Json.array(dump, "threadDump", "threadContainers")) {
			List<Object> threads = new ArrayList<>();
			for (Object thread : Json.array(container, "threads")) {
				String name = Json.string(thread, "", "name");
				if (KEPT.stream().anyMatch(name::startsWith)) {
					threads.add(thread);
				}
			}
			if (!threads.isEmpty()) {
				Map<String, Object> kept = new LinkedHashMap<>(Json.entries(container));
				kept.put("threads", threads);
				kept.put("threadCount", threads.size());
				containers.add(kept);
			}
		}
		Map<String, Object> threadDump = new LinkedHashMap<>(Json.entries(dump, "threadDump"));
		threadDump.put("threadContainers", containers);
		Files.writeString(file, Json.write(Json.object("threadDump", threadDump)));
	}

	/** How the threads of a family's dump are named. */
	private static final List<String> KEPT = List.of("request-", "quotes-worker-", "render-worker-");

	/** A route's handler: takes its resource, calls downstream while holding it. */
	abstract static class Handler {

		abstract void serve() throws Exception;

		void stop() {
		}

		/**
		 * The downstream call a holder makes: a minute's wait, interrupted at the end.
		 */
		static void callDownstream() throws InterruptedException {
			Thread.sleep(60_000);
		}

		/** A {@code synchronized} section around the call. */
		static final class Monitor extends Handler {

			private final Object lock = new Object();

			@Override
			void serve() throws Exception {
				synchronized (this.lock) {
					callDownstream();
				}
			}

		}

		/**
		 * A hand-written pool of licences: {@code synchronized}, {@code wait},
		 * {@code notifyAll}.
		 */
		static final class Licences extends Handler {

			private int free = HOLDERS;

			@Override
			void serve() throws Exception {
				take();
				try {
					callDownstream();
				}
				finally {
					give();
				}
			}

			synchronized void take() throws InterruptedException {
				while (this.free == 0) {
					wait();
				}
				this.free--;
			}

			synchronized void give() {
				this.free++;
				notifyAll();
			}

		}

		/** A {@code ReentrantLock} around the call. */
		static final class Locked extends Handler {

			private final ReentrantLock lock = new ReentrantLock();

			@Override
			void serve() throws Exception {
				this.lock.lockInterruptibly();
				try {
					callDownstream();
				}
				finally {
					this.lock.unlock();
				}
			}

		}

		/** A pool of two guarded by a lock and a condition. */
		static final class Conditioned extends Handler {

			private final ReentrantLock lock = new ReentrantLock();

			private final Condition freed = this.lock.newCondition();

			private int free = HOLDERS;

			@Override
			void serve() throws Exception {
				borrow();
				try {
					callDownstream();
				}
				finally {
					this.lock.lock();
					try {
						this.free++;
						this.freed.signal();
					}
					finally {
						this.lock.unlock();
					}
				}
			}

			void borrow() throws InterruptedException {
				this.lock.lockInterruptibly();
				try {
					while (this.free == 0) {
						this.freed.await();
					}
					this.free--;
				}
				finally {
					this.lock.unlock();
				}
			}

		}

		/** A {@code Semaphore} of two permits. */
		static final class Permits extends Handler {

			private final Semaphore permits = new Semaphore(HOLDERS);

			@Override
			void serve() throws Exception {
				this.permits.acquire();
				try {
					callDownstream();
				}
				finally {
					this.permits.release();
				}
			}

		}

		/** A queue of two handles, taken and put back by hand. */
		static final class Handles extends Handler {

			private final BlockingQueue<Object> handles = new ArrayBlockingQueue<>(HOLDERS);

			Handles() {
				for (int i = 0; i < HOLDERS; i++) {
					this.handles.add(new Object());
				}
			}

			@Override
			void serve() throws Exception {
				Object handle = this.handles.take();
				try {
					callDownstream();
				}
				finally {
					this.handles.put(handle);
				}
			}

		}

		/** A pool of two workers whose work each request joins. */
		static final class Joined extends Handler {

			private final AtomicInteger named = new AtomicInteger();

			private final List<CompletableFuture<Void>> quotes = new java.util.concurrent.CopyOnWriteArrayList<>();

			private final ExecutorService workers = Executors.newFixedThreadPool(HOLDERS,
					(task) -> new Thread(task, "quotes-worker-" + this.named.incrementAndGet()));

			@Override
			void serve() throws Exception {
				CompletableFuture<Void> quote = CompletableFuture.runAsync(() -> {
					try {
						callDownstream();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}, this.workers);
				this.quotes.add(quote);
				quote.join();
			}

			@Override
			void stop() {
				this.workers.shutdownNow();
				this.quotes.forEach((quote) -> quote.cancel(true));
			}

		}

		/** A latch a pool of two workers counts down. */
		static final class Latched extends Handler {

			private final AtomicInteger named = new AtomicInteger();

			private final ExecutorService workers = Executors.newFixedThreadPool(HOLDERS,
					(task) -> new Thread(task, "render-worker-" + this.named.incrementAndGet()));

			@Override
			void serve() throws Exception {
				CountDownLatch done = new CountDownLatch(1);
				this.workers.execute(() -> {
					try {
						callDownstream();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					done.countDown();
				});
				done.await();
			}

			@Override
			void stop() {
				this.workers.shutdownNow();
			}

		}

		/** A downstream that accepts and never answers: each request reads its socket. */
		static final class Silent extends Handler implements AutoCloseable {

			private final ServerSocket server;

			private final List<Socket> accepted = new ArrayList<>();

			Silent() throws Exception {
				this.server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
				Thread.ofPlatform().daemon().name("silent-downstream").start(() -> {
					try {
						while (true) {
							Socket socket = this.server.accept();
							synchronized (this.accepted) {
								this.accepted.add(socket);
							}
						}
					}
					catch (Exception ex) {
						// closed
					}
				});
			}

			@Override
			void stop() {
				synchronized (this.accepted) {
					for (Socket socket : this.accepted) {
						try {
							socket.close();
						}
						catch (Exception ex) {
							// closing
						}
					}
				}
			}

			@Override
			void serve() throws Exception {
				try (Socket socket = new Socket(this.server.getInetAddress(), this.server.getLocalPort());
						InputStream in = socket.getInputStream()) {
					in.read();
				}
			}

			@Override
			public void close() throws Exception {
				this.server.close();
			}

		}

	}

}
