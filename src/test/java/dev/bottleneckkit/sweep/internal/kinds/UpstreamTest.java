package dev.bottleneckkit.sweep.internal.kinds;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.read.RateLimits;
import dev.bottleneckkit.sweep.internal.waits.Upstream;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * Connections flat at their number while the users double are a pool only when nothing
 * before the client holds the requests back. Where request threads wait in a bulkhead, a
 * rate limiter or on a busy executor's work, the connections follow that cap: the verdict
 * says what the dumps saw, in the team's words, and names no pool. The route of each test
 * is an outside service's: a JDK {@code HttpClient} (no pool limit) calling pricing:8080,
 * 0.41 s a call.
 */
class UpstreamTest {

	private static final String REQUEST = "org.apache.catalina.core.ApplicationFilterChain.doFilter";

	private static final List<String> SEMAPHORE_WAITING = List.of("jdk.internal.misc.Unsafe.park",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly",
			"java.util.concurrent.Semaphore.acquire", "com.example.shop.Quotes.guarded");

	private static final List<String> R4J_WAITING = List.of("jdk.internal.misc.Unsafe.park",
			"java.util.concurrent.Semaphore.tryAcquire",
			"io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead.tryEnterBulkhead",
			"io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead.acquirePermission",
			"io.github.resilience4j.bulkhead.Bulkhead.lambda$decorateCheckedSupplier$0",
			"com.example.shop.PricingClient.quote");

	private static final List<String> R4J_RATE_WAITING = List.of("jdk.internal.misc.Unsafe.park",
			"java.util.concurrent.locks.LockSupport.parkNanos",
			"io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter.waitForPermission",
			"io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter.acquirePermission",
			"com.example.shop.PricingClient.quote");

	private static final List<String> JDK_CLIENT_CALL = List.of("jdk.internal.misc.Unsafe.park",
			"java.util.concurrent.CompletableFuture.get", "jdk.internal.net.http.HttpClientImpl.send",
			"jdk.internal.net.http.HttpClientFacade.send", "com.example.shop.PricingClient.quote");

	/**
	 * A Resilience4j bulkhead of 10 permits before the JDK client: 10 connections to
	 * pricing, flat while the users went 16 → 32, 22 threads waiting for a permit. It
	 * read "connection pool to pricing:8080: 10 connections (TCP)" once, a pool that does
	 * not exist; the bulkhead is named where the dumps find the cap, its 10 permits the
	 * request threads past it in the same code as the waiters: 10 / 0.41 s = 24.4 rps.
	 */
	@Test
	void connectionsBehindABulkheadNameTheBulkheadAndNoPool() {
		SweepResult sweep = waitingForPermits(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL), R4J_WAITING,
				new GaugeTimeline(Map.of()));

		assertThat(sweep).isCappedBy(Resource.BULKHEAD)
			.hasCeilingNearItsModel(withPercentage(2))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 24.4 rps from 16 users: a Resilience4j bulkhead: 10/10"
				+ " permits held; requests wait in `io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead"
				+ ".tryEnterBulkhead` (a semaphore), 22 at once: 10 holders, request threads past"
				+ " `com.example.shop.PricingClient.quote` — 10 permits / 0.410 s = 24.4 rps");
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("TCP connections",
				"pricing:8080 flat at 10: agrees");
		// The connections agree, yet a bulkhead is not where its calls go: a semaphore's
		// has no name the kit can turn (a thread-pool bulkhead's knob is set by its
		// name).
		assertThat(((Verdict.Capped) sweep.verdict()).where()).isEmpty();
		assertThat(ResourceKinds.doubling((Verdict.Capped) sweep.verdict(), null)).isEmpty();
	}

	/**
	 * A client that kept its connections from an earlier load has them open from the
	 * first step: flat at 10 says nothing of the load alone, but beside a cap named by
	 * its waiters it agrees all the same (S1's default pool swept 40 s after a load of 40
	 * users read its 5 connections from the first step).
	 */
	@Test
	void connectionsKeptOpenFromAnEarlierLoadAgreeAllTheSame() {
		ThreadDump at16 = dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL),
				threads(6, "http-nio-8080-exec-", R4J_WAITING));
		ThreadDump at32 = dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL),
				threads(22, "http-nio-8080-exec-", R4J_WAITING));
		GaugeTimeline none = new GaugeTimeline(Map.of());
		List<Step> steps = List.of(step(1, 2.4, 410, 10, List.of(), none), step(2, 4.9, 410, 10, List.of(), none),
				step(4, 9.7, 412, 10, List.of(), none), step(8, 19.3, 414, 10, List.of(), none),
				step(16, 24.3, 660, 10, List.of(at16), none), step(32, 24.4, 1310, 10, List.of(at32), none));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true, List.of());

		assertThat(sweep).isCappedBy(Resource.BULKHEAD).isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("TCP connections",
				"pricing:8080 flat at 10: agrees");
	}

	/**
	 * Resilience4j's meters, where Actuator publishes them, give the permits: 10, all
	 * held, whatever the dumps caught past the permit (8 here, two between the permit and
	 * the call).
	 */
	@Test
	void aBulkheadsPermitsComeFromItsMetersWhenPublished() {
		GaugeTimeline meters = new GaugeTimeline(Map.of(Gauge.BULKHEAD_MAX.label(),
				List.of(new GaugeTimeline.Sample(Duration.ZERO, 10),
						new GaugeTimeline.Sample(Duration.ofSeconds(5), 10)),
				Gauge.BULKHEAD_AVAILABLE.label(), List.of(new GaugeTimeline.Sample(Duration.ZERO, 1),
						new GaugeTimeline.Sample(Duration.ofSeconds(5), 0))));
		SweepResult sweep = waitingForPermits(threads(8, "http-nio-8080-exec-", JDK_CLIENT_CALL), R4J_WAITING, meters);

		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(2));
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("permits",
				"10 from Resilience4j's meters (resilience4j.bulkhead.*), 10 held at most");
	}

	/**
	 * Two Resilience4j bulkheads, one full of 10 permits and one idle of 4: their meters
	 * are read without a name, so they sum to 14 permits with at most 10 held. Those are
	 * not one bulkhead's: the full one's permits come from the threads past it.
	 */
	@Test
	void twoBulkheadsMetersSummedDoNotSizeTheFullOne() {
		GaugeTimeline meters = new GaugeTimeline(
				Map.of(Gauge.BULKHEAD_MAX.label(), flat(14), Gauge.BULKHEAD_AVAILABLE.label(), flat(4)));
		SweepResult sweep = waitingForPermits(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL), R4J_WAITING, meters);

		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(2));
		assertThat(((Verdict.Capped) sweep.verdict()).readings().get("permits")).startsWith("10 holders in the dumps")
			.endsWith("(Resilience4j's meters read 14 permits, 10 held at most: the sum of its bulkheads)");
	}

	/**
	 * A plain {@code Semaphore} the team's code acquires is a bulkhead as well: its
	 * permits are the request threads past it in the same method.
	 */
	@Test
	void aPlainSemaphoreIsABulkhead() {
		List<String> holding = new ArrayList<>(JDK_CLIENT_CALL.subList(0, JDK_CLIENT_CALL.size() - 1));
		holding.add("com.example.shop.Quotes.guarded");
		SweepResult sweep = waitingForPermits(threads(10, "http-nio-8080-exec-", holding), SEMAPHORE_WAITING,
				new GaugeTimeline(Map.of()));

		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(2));
		assertThat(sweep.verdict().line()).contains("a semaphore: 10/10 permits held; requests wait in"
				+ " `com.example.shop.Quotes.guarded` (a semaphore), 22 at once: 10 holders");
	}

	/**
	 * A semaphore of the team's own beside an idle Resilience4j bulkhead of 4 whose
	 * meters Actuator publishes: the meters count the Resilience4j bulkhead's permits,
	 * not the semaphore's, so its permits come from the threads past it (the shop's
	 * /stock-check read "0/4 permits held" from them). The kit's own JMX connection
	 * threads, busy answering its dump, are no pool of the service's.
	 */
	@Test
	void aSemaphoreBesideAResilience4jBulkheadIsReadFromItsThreads() {
		List<String> holding = new ArrayList<>(JDK_CLIENT_CALL.subList(0, JDK_CLIENT_CALL.size() - 1));
		holding.add("com.example.shop.Quotes.guarded");
		List<DumpedThread> rmi = List.of(new DumpedThread("RMI TCP Connection(2)-172.20.0.1",
				List.of("java.lang.Thread.dumpThreads", "sun.rmi.transport.tcp.TCPTransport$ConnectionHandler.run",
						"java.util.concurrent.ThreadPoolExecutor.runWorker")));
		GaugeTimeline idleResilience4j = new GaugeTimeline(
				Map.of(Gauge.BULKHEAD_MAX.label(), flat(4), Gauge.BULKHEAD_AVAILABLE.label(), flat(4)));

		SweepResult sweep = waitingForPermits(threads(10, "http-nio-8080-exec-", holding), SEMAPHORE_WAITING,
				idleResilience4j, rmi);

		assertThat(sweep).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(2));
		assertThat(sweep.verdict().line()).contains("a semaphore: 10/10 permits held");
		assertThat(Upstream.executors(dump(threads(10, "http-nio-8080-exec-", holding), rmi), ResourceKinds.SERVING))
			.isEmpty();
	}

	/**
	 * A rate limiter is no bulkhead: its waiters wait for time, not for a permit another
	 * request holds. Without its rate (configured in code, not read) it reads
	 * unexplained, with what the dumps saw.
	 */
	@Test
	void aRateLimitersWaitersNameNoBulkhead() {
		SweepResult sweep = flatAtTen(dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL),
				threads(22, "http-nio-8080-exec-", R4J_RATE_WAITING)));

		assertThat(sweep).isUnexplained();
		assertThat(sweep.verdict().line()).contains("22 request threads waiting for a Resilience4j rate limiter in"
				+ " com.example.shop.PricingClient.quote");
	}

	/**
	 * With its rate read from its configuration, 24 permits every second, the rate
	 * limiter is named by its waiters: 24 / 1 s = 24 rps against 24.4 measured.
	 */
	@Test
	void aRateLimiterWithItsRateReadIsNamed() {
		SweepResult sweep = flatAtTen(
				dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL),
						threads(22, "http-nio-8080-exec-", R4J_RATE_WAITING)),
				new GaugeTimeline(Map.of()), List.of(new RateLimits.Rate("quotes", 24, Duration.ofSeconds(1),
						"resilience4j.ratelimiter.instances.quotes.limit-for-period=24")));

		assertThat(sweep).isCappedBy(Resource.RATE_LIMITER)
			.hasCeilingNearItsModel(withPercentage(2))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 24.4 rps from 16 users: a Resilience4j rate limiter"
				+ " (quotes): 24 permits every 1 s, 22 request threads waiting — 24 permits / 1.000 s = 24.0 rps");
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("waiting",
				"22 request threads waiting for a Resilience4j rate limiter in com.example.shop.PricingClient.quote,"
						+ " at most, in 2 of 2 dumps");
	}

	/**
	 * A rate limiter's rate is read only where the steps show its meters: a service
	 * without them is not asked; with them, the kind asks its agent (none here, so what
	 * it could not read is one line).
	 */
	@Test
	void aRateIsReadOnlyWhereTheStepsShowARateLimiter() {
		ThreadDump dump = dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL));
		GaugeTimeline meters = new GaugeTimeline(
				Map.of(Gauge.RATE_LIMITER_AVAILABLE.label(), List.of(new GaugeTimeline.Sample(Duration.ZERO, 0))));
		List<String> blind = new ArrayList<>();

		assertThat(new RateLimiterKind().settings(
				SweepResults.readings(flatAtTen(dump, new GaugeTimeline(Map.of()), List.of())).steps(), null, blind))
			.isEmpty();
		assertThat(blind).isEmpty();
		assertThat(new RateLimiterKind().settings(SweepResults.readings(flatAtTen(dump, meters, List.of())).steps(),
				null, blind))
			.isEmpty();
		assertThat(blind).singleElement().asString().startsWith("rate limiters: their rates not read over JMX");
	}

	/**
	 * Its meters count the waiters where no dump was taken; of two rate limiters, the one
	 * whose rate explains the ceiling is named.
	 */
	@Test
	void aRateLimitersWaitersComeFromItsMetersAndTheRateThatExplainsTheCeilingIsNamed() {
		GaugeTimeline meters = new GaugeTimeline(Map.of(Gauge.RATE_LIMITER_WAITING.label(),
				List.of(new GaugeTimeline.Sample(Duration.ZERO, 7),
						new GaugeTimeline.Sample(Duration.ofSeconds(5), 21)),
				Gauge.RATE_LIMITER_AVAILABLE.label(), List.of(new GaugeTimeline.Sample(Duration.ZERO, -3),
						new GaugeTimeline.Sample(Duration.ofSeconds(5), -12))));

		SweepResult sweep = flatAtTen(dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL)), meters,
				List.of(new RateLimits.Rate("search", 100, Duration.ofSeconds(1), "defaults"),
						new RateLimits.Rate("quotes", 12, Duration.ofMillis(500), "configured")));

		assertThat(sweep).isCappedBy(Resource.RATE_LIMITER).hasCeilingNearItsModel(withPercentage(2));
		assertThat(((Verdict.Capped) sweep.verdict()).where()).contains("quotes");
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("waiting",
				"21 request threads at most (resilience4j.ratelimiter.waiting_threads)");
	}

	/**
	 * Request threads waiting in a Guava rate limiter beside a Resilience4j one: the
	 * Resilience4j rate limiter's rate is not theirs, and it is not named for them.
	 */
	@Test
	void aGuavaRateLimitersWaitersNameNoResilience4jRateLimiter() {
		List<String> guava = List.of("java.lang.Thread.sleep", "java.util.concurrent.TimeUnit.sleep",
				"com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly",
				"com.google.common.util.concurrent.RateLimiter.acquire", "com.example.shop.ShopApplication.suppliers");

		SweepResult sweep = flatAtTen(
				dump(threads(10, "http-nio-8080-exec-", JDK_CLIENT_CALL), threads(22, "http-nio-8080-exec-", guava)),
				new GaugeTimeline(Map.of()),
				List.of(new RateLimits.Rate("partners", 24, Duration.ofSeconds(1), "configured")));

		assertThat(sweep).isUnexplained();
		assertThat(sweep.verdict().line()).contains(
				"22 request threads waiting for a Guava rate limiter in com.example.shop.ShopApplication.suppliers");
	}

	/** A rate limiter no request thread waits for is no cap, whatever its rate. */
	@Test
	void aRateLimiterNoThreadWaitsForIsNoCap() {
		SweepResult sweep = flatAtTen(dump(threads(32, "http-nio-8080-exec-", JDK_CLIENT_CALL)),
				new GaugeTimeline(Map.of()),
				List.of(new RateLimits.Rate("quotes", 24, Duration.ofSeconds(1), "configured")));

		assertThat(sweep).isNotCappedBy(Resource.RATE_LIMITER);
	}

	/**
	 * A fixed pool of 4 threads fans the calls out, and the request threads join its
	 * futures: what was full is the pool's 4 threads, in the names the team's code gave
	 * them. With no dump below the cap, what a request needs of it is not known: no
	 * model, so no verdict, only what was seen.
	 */
	@Test
	void connectionsBehindABusyExecutorNameItsThreads() {
		List<String> worker = new ArrayList<>(JDK_CLIENT_CALL);
		worker.addAll(List.of("com.example.shop.Fanout.lambda$quotes$0",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.ThreadPoolExecutor.runWorker",
				"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"));
		List<DumpedThread> workers = new ArrayList<>();
		for (int i = 1; i <= 4; i++) {
			workers.add(new DumpedThread("pool-2-thread-" + i, worker));
		}
		ThreadDump dump = dump(workers, threads(28, "http-nio-8080-exec-", List.of("jdk.internal.misc.Unsafe.park",
				"java.util.concurrent.CompletableFuture.join", "com.example.shop.Fanout.quotes")));

		SweepResult sweep = flatAtTen(dump);

		assertThat(sweep).isUnexplained().isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).contains("28 request threads waiting for another pool's work"
				+ " (4 threads named pool-2-thread-* all busy) in com.example.shop.Fanout.quotes");
	}

	/**
	 * The same fixed pool of 4 fanning two calls of 0.41 s out a request, with dumps
	 * below the cap: at one user 2 of its threads work while the request is in flight,
	 * for its median 0.41 s, 0.82 thread-seconds a request, so 4 threads give 4.9 rps,
	 * and the ceiling is 4.9. The pool is named in the team's words; no pool of
	 * connections is.
	 */
	@Test
	void aBusyExecutorWithItsDemandReadBelowTheCapIsNamed() {
		List<String> worker = new ArrayList<>(JDK_CLIENT_CALL);
		worker.addAll(List.of("com.example.shop.Fanout.lambda$quotes$0",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.ThreadPoolExecutor.runWorker",
				"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"));
		List<String> idle = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.LinkedBlockingQueue.take",
				"java.util.concurrent.ThreadPoolExecutor.getTask", "java.util.concurrent.ThreadPoolExecutor.runWorker",
				"java.lang.Thread.run");
		List<String> joining = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.CompletableFuture.join",
				"com.example.shop.Fanout.quotes");
		List<DumpedThread> oneUser = new ArrayList<>(threads(1, "http-nio-8080-exec-", joining));
		List<DumpedThread> workers = new ArrayList<>();
		for (int i = 1; i <= 4; i++) {
			oneUser.add(new DumpedThread("quotes-" + i, (i <= 2) ? worker : idle));
			workers.add(new DumpedThread("quotes-" + i, worker));
		}
		GaugeTimeline none = new GaugeTimeline(Map.of());
		ThreadDump atOne = new ThreadDump(Path.of("threads-1.json"), oneUser);
		List<Step> steps = List.of(step(1, 2.4, 410, 2, List.of(atOne), none), step(2, 3.9, 510, 4, List.of(), none),
				step(4, 4.8, 830, 4, List.of(dump(threads(4, "http-nio-8080-exec-", joining), workers)), none),
				step(8, 4.9, 1630, 4, List.of(dump(threads(8, "http-nio-8080-exec-", joining), workers)), none));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true);

		assertThat(sweep).isCappedBy(Resource.EXECUTOR)
			.hasCeilingNearItsModel(withPercentage(3))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 4.9 rps from 4 users: the service's own pool quotes-*:"
				+ " 4 threads busy, each unit of work starting in `com.example.shop.Fanout.lambda$quotes$0`; requests"
				+ " wait in `com.example.shop.Fanout.quotes` (a future), 8 at once — 4 threads / 0.820 s = 4.9 rps");
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("a request's demand",
				"0.820 thread-seconds: 2.0 threads busy while the request was in flight, in 1 of 1 dumps at 1 user,"
						+ " for its median 0.410 s");

		// A dump between two requests, the pool idle for want of one, reads no demand: at
		// one user only the dumps that caught the request in flight count. Averaged in,
		// it read 1.3 busy threads for 2 and a model half as high again as the ceiling.
		List<DumpedThread> between = new ArrayList<>();
		for (int i = 1; i <= 4; i++) {
			between.add(new DumpedThread("quotes-" + i, idle));
		}
		ThreadDump atRest = new ThreadDump(Path.of("threads-2.json"), between);
		List<Step> caught = new ArrayList<>(steps);
		caught.set(0, step(1, 2.4, 410, 2, List.of(atOne, atRest, atOne), none));

		SweepResult withARest = SweepResults.analysed("test", URI.create("http://localhost/"), caught, true);

		assertThat(withARest).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(3));
		assertThat(((Verdict.Capped) withARest.verdict()).readings()).containsEntry("a request's demand",
				"0.820 thread-seconds: 2.0 threads busy while the request was in flight, in 2 of 3 dumps at 1 user,"
						+ " for its median 0.410 s");
	}

	/**
	 * A Resilience4j thread-pool bulkhead, core 2 and max 4, its queue of 100 never full:
	 * its calls of 0.2 s run on its 2 threads, so 2 / 0.2 s = 10 rps however many users
	 * arrive, where the max promised 20. It is named a bulkhead by its threads' names
	 * ({@code bulkhead-offers-N}), with its sizes from its meters, and its knob raises
	 * the core with the most.
	 */
	@Test
	void aThreadPoolBulkheadIsNamedABulkheadWithItsSizes() {
		List<String> worker = new ArrayList<>(JDK_CLIENT_CALL);
		worker.addAll(List.of("com.example.shop.ShopApplication.lambda$offers$0",
				"io.github.resilience4j.bulkhead.internal.FixedThreadPoolBulkhead.lambda$submit$0",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.ThreadPoolExecutor.runWorker",
				"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"));
		List<String> joining = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.CompletableFuture.join",
				"com.example.shop.ShopApplication.offers");
		List<DumpedThread> oneUser = new ArrayList<>(threads(1, "http-nio-8080-exec-", joining));
		List<DumpedThread> workers = new ArrayList<>();
		oneUser.add(new DumpedThread("bulkhead-offers-1", worker));
		for (int i = 1; i <= 2; i++) {
			workers.add(new DumpedThread("bulkhead-offers-" + i, worker));
		}
		GaugeTimeline none = new GaugeTimeline(Map.of());
		GaugeTimeline sizes = new GaugeTimeline(Map.of(Gauge.THREAD_POOL_BULKHEAD_CORE.label(), flat(2),
				Gauge.THREAD_POOL_BULKHEAD_MAX.label(), flat(4), Gauge.THREAD_POOL_BULKHEAD_QUEUED.label(), flat(14),
				Gauge.THREAD_POOL_BULKHEAD_QUEUE_CAPACITY.label(), flat(100)));
		ThreadDump atOne = new ThreadDump(Path.of("threads-1.json"), oneUser);
		List<Step> steps = List.of(step(1, 4.9, 205, 1, List.of(atOne), none), step(2, 9.7, 206, 2, List.of(), none),
				step(4, 9.8, 408, 2, List.of(dump(threads(4, "http-nio-8080-exec-", joining), workers)), sizes),
				step(8, 9.8, 816, 2, List.of(dump(threads(8, "http-nio-8080-exec-", joining), workers)), sizes),
				step(16, 9.8, 1632, 2, List.of(dump(threads(16, "http-nio-8080-exec-", joining), workers)), sizes));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true);

		assertThat(sweep).isCappedBy(Resource.BULKHEAD)
			.hasCeilingNearItsModel(withPercentage(3))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		Verdict.Capped verdict = (Verdict.Capped) sweep.verdict();
		assertThat(verdict.line()).contains("Resilience4j's thread-pool bulkhead offers: 2/2 threads busy,"
				+ " 16 request threads waiting on its work — 2 threads / 0.205 s = 9.8 rps");
		assertThat(verdict.readings()).containsEntry("sizes", "core 2, max 4 threads (resilience4j.bulkhead.*);"
				+ " 14 calls queued at most, of 100: it runs on 2 threads and grows towards 4 only once its queue is full");
		assertThat(ResourceKinds.doubling(verdict, null)).map(Knob::name).hasValue("bulkhead offers 4 threads");
		GaugeTimeline twoBulkheads = new GaugeTimeline(Map.of(Gauge.THREAD_POOL_BULKHEAD_CORE.label(), flat(4),
				Gauge.THREAD_POOL_BULKHEAD_MAX.label(), flat(8)));
		assertThat(BulkheadKind.threadPoolBulkheadMeters(twoBulkheads, 2))
			.as("two bulkheads' sizes, summed, are not said")
			.isEmpty();
	}

	/**
	 * Spring's own task executor, the {@code applicationTaskExecutor} Boot configures:
	 * two quotes of 0.5 s fetched at once on its 4 threads ({@code task-N}), a request
	 * needing 2 threads for 0.5 s, 4 / 1.0 s = 4 rps. Its {@code executor.*} meters show
	 * it as the pool the dumps found full (4 active), so it is named by its bean name and
	 * its knob is Spring's {@code spring.task.execution.pool.*}.
	 */
	@Test
	void springsTaskExecutorIsNamedWithItsSizesAndItsKnob() {
		List<String> worker = new ArrayList<>(JDK_CLIENT_CALL);
		worker.addAll(List.of("com.example.stock.StockApplication.quoteBytes",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.ThreadPoolExecutor.runWorker",
				"java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run"));
		List<String> joining = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.CompletableFuture.join",
				"com.example.stock.StockApplication.compare");
		List<DumpedThread> oneUser = new ArrayList<>(threads(1, "http-nio-8080-exec-", joining));
		List<DumpedThread> workers = new ArrayList<>();
		for (int i = 1; i <= 2; i++) {
			oneUser.add(new DumpedThread("task-" + i, worker));
		}
		for (int i = 1; i <= 4; i++) {
			workers.add(new DumpedThread("task-" + i, worker));
		}
		GaugeTimeline none = new GaugeTimeline(Map.of());
		GaugeTimeline meters = new GaugeTimeline(
				Map.of(Gauge.TASK_EXECUTOR_CORE.label(), flat(4), Gauge.TASK_EXECUTOR_MAX.label(), flat(4),
						Gauge.TASK_EXECUTOR_ACTIVE.label(), flat(4), Gauge.TASK_EXECUTOR_QUEUED.label(), flat(12)));
		ThreadDump atOne = new ThreadDump(Path.of("threads-1.json"), oneUser);
		List<Step> steps = List.of(step(1, 2.0, 500, 2, List.of(atOne), none), step(2, 3.9, 510, 4, List.of(), none),
				step(4, 4.0, 1000, 4, List.of(dump(threads(4, "http-nio-8080-exec-", joining), workers)), meters),
				step(8, 4.0, 2000, 4, List.of(dump(threads(8, "http-nio-8080-exec-", joining), workers)), meters),
				step(16, 4.0, 4000, 4, List.of(dump(threads(16, "http-nio-8080-exec-", joining), workers)), meters));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true);

		assertThat(sweep).isCappedBy(Resource.EXECUTOR)
			.hasCeilingNearItsModel(withPercentage(3))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		Verdict.Capped verdict = (Verdict.Capped) sweep.verdict();
		assertThat(verdict.line()).contains("Spring's task executor applicationTaskExecutor (task-*): 4 threads busy,"
				+ " each unit of work starting in `com.example.stock.StockApplication.quoteBytes`; requests wait in"
				+ " `com.example.stock.StockApplication.compare` (a future), 16 at once — 4 threads / 1.000 s = 4.0 rps");
		assertThat(verdict.readings()).containsEntry("sizes",
				"core 4, max 4 threads (spring.task.execution.pool.*), 4 active at most; 12 tasks queued at most");
		assertThat(ResourceKinds.doubling(verdict, null)).map(Knob::name).hasValue("Spring's task executor 8 threads");
		// Another executor's meters (8 active where the dumps counted 4 busy) do not size
		// it.
		GaugeTimeline another = new GaugeTimeline(Map.of(Gauge.TASK_EXECUTOR_CORE.label(), flat(8),
				Gauge.TASK_EXECUTOR_MAX.label(), flat(8), Gauge.TASK_EXECUTOR_ACTIVE.label(), flat(8)));
		assertThat(ExecutorKind.springTaskExecutorMeters(another, 4)).isEmpty();
	}

	private static List<GaugeTimeline.Sample> flat(double value) {
		return List.of(new GaugeTimeline.Sample(Duration.ZERO, value),
				new GaugeTimeline.Sample(Duration.ofSeconds(5), value));
	}

	/**
	 * The common pool, given as the executor ({@code supplyAsync(task,
	 * ForkJoinPool.commonPool())}): one thread on two cores (its parallelism is the cores
	 * less one; without an executor, {@code CompletableFuture} runs each task on a thread
	 * of its own where that parallelism is 1). A call of 0.41 s a request on it: at one
	 * user its one worker works for a request served at 2.4 rps, 0.42 thread-seconds a
	 * request, 1 / 0.42 s = 2.4 rps against a ceiling of 2.4, however many users arrive.
	 * Named by its threads' names, as the JDK gives them.
	 */
	@Test
	void theCommonPoolIsTheServicesOwnPoolToo() {
		List<String> worker = new ArrayList<>(JDK_CLIENT_CALL);
		worker.addAll(List.of("com.example.shop.Fanout.lambda$quote$0",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.CompletableFuture$AsyncSupply.exec", "java.util.concurrent.ForkJoinTask.doExec",
				"java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec", "java.util.concurrent.ForkJoinPool.scan",
				"java.util.concurrent.ForkJoinPool.runWorker", "java.util.concurrent.ForkJoinWorkerThread.run"));
		List<String> joining = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
				"java.util.concurrent.CompletableFuture$Signaller.block",
				"java.util.concurrent.ForkJoinPool.unmanagedBlock", "java.util.concurrent.ForkJoinPool.managedBlock",
				"java.util.concurrent.CompletableFuture.waitingGet", "java.util.concurrent.CompletableFuture.join",
				"com.example.shop.Fanout.quote");
		DumpedThread busy = new DumpedThread("ForkJoinPool.commonPool-worker-1", worker);
		ThreadDump atOne = new ThreadDump(Path.of("threads-1.json"),
				concat(threads(1, "http-nio-8080-exec-", joining), busy));
		GaugeTimeline none = new GaugeTimeline(Map.of());
		List<Step> steps = List.of(step(1, 2.4, 415, 1, List.of(atOne), none), step(2, 2.4, 830, 1, List.of(), none),
				step(4, 2.4, 1660, 1, List.of(dump(threads(4, "http-nio-8080-exec-", joining), List.of(busy))), none),
				step(8, 2.4, 3320, 1, List.of(dump(threads(8, "http-nio-8080-exec-", joining), List.of(busy))), none));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true);

		assertThat(sweep).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(3));
		assertThat(sweep.verdict().line()).contains("the service's own pool ForkJoinPool.commonPool-worker-*:"
				+ " 1 thread busy, each unit of work starting in `com.example.shop.Fanout.lambda$quote$0`; requests"
				+ " wait in `com.example.shop.Fanout.quote` (a future), 8 at once");
		assertThat(ResourceKinds.doubling((Verdict.Capped) sweep.verdict(), null)).map(Knob::name)
			.hasValue("common pool 2 threads");
	}

	/**
	 * The common pool of 2 running a request's two queries of 0.2 s side by side: full
	 * from one user, 2 / (2 × 0.206 s) = 4.9 rps. A dump that walks the threads one by
	 * one can catch a worker finishing the last request's query after that request has
	 * left: one worker busy and no request thread serving. That dump is no request in
	 * flight; counted in, it read 1.5 busy threads for 2, a model 1.33× the ceiling, and
	 * no name.
	 */
	@Test
	void aPoolFinishingARequestThatHasLeftIsNoRequestInFlight() {
		List<String> worker = List.of("sun.nio.ch.Net.poll", "com.mysql.cj.protocol.ReadAheadInputStream.fill",
				"com.example.shop.ShopApplication.lambda$delivery$0",
				"java.util.concurrent.CompletableFuture$AsyncSupply.run",
				"java.util.concurrent.CompletableFuture$AsyncSupply.exec", "java.util.concurrent.ForkJoinTask.doExec",
				"java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec", "java.util.concurrent.ForkJoinPool.scan",
				"java.util.concurrent.ForkJoinPool.runWorker", "java.util.concurrent.ForkJoinWorkerThread.run");
		List<String> idle = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
				"java.util.concurrent.ForkJoinPool.awaitWork", "java.util.concurrent.ForkJoinPool.runWorker",
				"java.util.concurrent.ForkJoinWorkerThread.run");
		List<String> joining = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
				"java.util.concurrent.CompletableFuture$Signaller.block",
				"java.util.concurrent.ForkJoinPool.unmanagedBlock", "java.util.concurrent.ForkJoinPool.managedBlock",
				"java.util.concurrent.CompletableFuture.waitingGet", "java.util.concurrent.CompletableFuture.join",
				"com.example.shop.ShopApplication.delivery");
		DumpedThread first = new DumpedThread("ForkJoinPool.commonPool-worker-1", worker);
		DumpedThread second = new DumpedThread("ForkJoinPool.commonPool-worker-2", worker);
		DumpedThread firstIdle = new DumpedThread("ForkJoinPool.commonPool-worker-1", idle);
		DumpedThread secondIdle = new DumpedThread("ForkJoinPool.commonPool-worker-2", idle);
		ThreadDump inFlight = new ThreadDump(Path.of("threads-1.json"),
				concat(concat(threads(1, "tomcat-handler-", joining), first), second));
		ThreadDump leftBehind = new ThreadDump(Path.of("threads-2.json"), List.of(firstIdle, second));
		ThreadDump between = new ThreadDump(Path.of("threads-3.json"), List.of(firstIdle, secondIdle));
		ThreadDump atCap = new ThreadDump(Path.of("threads-4.json"),
				concat(concat(threads(4, "tomcat-handler-", joining), first), second));
		GaugeTimeline none = new GaugeTimeline(Map.of());
		ThreadDump atTwo = new ThreadDump(Path.of("threads-5.json"),
				concat(concat(threads(2, "tomcat-handler-", joining), first), second));
		List<Step> steps = List.of(step(1, 4.8, 206, 1, List.of(inFlight, leftBehind, between), none),
				step(2, 5.0, 403, 1, List.of(atTwo), none), step(4, 5.1, 786, 1, List.of(atCap, atCap, atCap), none));

		SweepResult sweep = SweepResults.analysed("test", URI.create("http://localhost/"), steps, true);

		assertThat(sweep).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(10));
		assertThat(((Verdict.Capped) sweep.verdict()).readings()).containsEntry("a request's demand",
				"0.412 thread-seconds: 2.0 threads busy while the request was in flight, in 1 of 3 dumps at 1 user,"
						+ " for its median 0.206 s");

		// The request still joining while one query has finished and the other ends: in
		// flight, one worker of two at work. The threads it runs at once are what most
		// dumps in which the pool works say, the higher on a tie; a mean read 1.5.
		ThreadDump oneDone = new ThreadDump(Path.of("threads-5.json"),
				concat(concat(threads(1, "tomcat-handler-", joining), firstIdle), second));
		ThreadDump handoff = new ThreadDump(Path.of("threads-6.json"),
				concat(concat(threads(1, "tomcat-handler-", joining), firstIdle), secondIdle));
		List<Step> ending = new ArrayList<>(steps);
		ending.set(0, step(1, 4.8, 205, 1, List.of(inFlight, oneDone, handoff), none));

		SweepResult caught = SweepResults.analysed("test", URI.create("http://localhost/"), ending, true);

		assertThat(caught).isCappedBy(Resource.EXECUTOR).hasCeilingNearItsModel(withPercentage(10));
		assertThat(((Verdict.Capped) caught.verdict()).readings()).containsEntry("a request's demand",
				"0.410 thread-seconds: 2.0 threads busy while the request was in flight, in 2 of 3 dumps at 1 user,"
						+ " for its median 0.205 s");
	}

	private static List<DumpedThread> concat(List<DumpedThread> threads, DumpedThread one) {
		List<DumpedThread> all = new ArrayList<>(threads);
		all.add(one);
		return all;
	}

	/**
	 * Seed 000's WebClient: the request threads wait for their own answers in
	 * {@code block()}, nothing waits before the client, and its meterless pool stays
	 * named.
	 */
	@Test
	void aClientPoolWhoseCallersWaitForTheirOwnAnswersStaysNamed() {
		ThreadDump dump = dump(threads(32, "http-nio-8080-exec-",
				List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.CountDownLatch.await",
						"reactor.core.publisher.BlockingSingleSubscriber.blockingGet",
						"reactor.core.publisher.Mono.block", "com.example.shop.PricingClient.quote")));

		SweepResult sweep = flatAtTen(dump);

		assertThat(sweep).isCappedBy(Resource.CONNECTION_POOL).hasCeilingNearItsModel(withPercentage(15));
	}

	/**
	 * An executor with a thread idle in its queue is not full, and a virtual-thread
	 * scheduler's carriers are no team's executor.
	 */
	@Test
	void anExecutorWithAnIdleThreadOrTheCarriersAreNotBusy() {
		List<DumpedThread> threads = new ArrayList<>();
		threads.add(new DumpedThread("pool-3-thread-1", List.of("com.example.Work.run",
				"java.util.concurrent.ThreadPoolExecutor.runWorker", "java.lang.Thread.run")));
		threads.add(new DumpedThread("pool-3-thread-2",
				List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.LinkedBlockingQueue.take",
						"java.util.concurrent.ThreadPoolExecutor.getTask",
						"java.util.concurrent.ThreadPoolExecutor.runWorker", "java.lang.Thread.run")));
		threads.add(new DumpedThread("ForkJoinPool-1-worker-1",
				List.of("jdk.internal.vm.Continuation.run", "java.lang.VirtualThread.runContinuation",
						"java.util.concurrent.ForkJoinPool.runWorker",
						"java.util.concurrent.ForkJoinWorkerThread.run")));

		assertThat(Upstream.busyExecutors(new ThreadDump(Path.of("threads-1.json"), threads), ResourceKinds.SERVING))
			.isEmpty();
	}

	/**
	 * Steps of 1 to 32 users on the route, the connections to pricing growing to 10 and
	 * then flat at 10 while the users went 16 → 32, {@code dump} taken at both steps at
	 * the cap: 10 / 0.41 s = 24.4 rps.
	 */
	private static SweepResult flatAtTen(ThreadDump dump) {
		return flatAtTen(dump, new GaugeTimeline(Map.of()));
	}

	/** The same, with {@code meters} read at the steps at the cap. */
	private static SweepResult flatAtTen(ThreadDump dump, GaugeTimeline meters) {
		return flatAtTen(dump, meters, List.of());
	}

	/** The same, the service's rate limiters configured at {@code rates}. */
	private static SweepResult flatAtTen(ThreadDump dump, GaugeTimeline meters, List<RateLimits.Rate> rates) {
		return flatAtTen(dump, dump, meters, rates);
	}

	/**
	 * A bulkhead's steps: {@code holders} past its permit at 16 and 32 users, the other
	 * users waiting for one in {@code waitingFrames} (6 at 16 users, 22 at 32), and
	 * {@code others} beside them.
	 */
	@SafeVarargs
	private static SweepResult waitingForPermits(List<DumpedThread> holders, List<String> waitingFrames,
			GaugeTimeline meters, List<DumpedThread>... others) {
		List<DumpedThread> rest = Arrays.stream(others).flatMap(List::stream).toList();
		return flatAtTen(dump(holders, threads(16 - holders.size(), "http-nio-8080-exec-", waitingFrames), rest),
				dump(holders, threads(32 - holders.size(), "http-nio-8080-exec-", waitingFrames), rest), meters,
				List.of());
	}

	private static SweepResult flatAtTen(ThreadDump at16, ThreadDump at32, GaugeTimeline meters,
			List<RateLimits.Rate> rates) {
		GaugeTimeline none = new GaugeTimeline(Map.of());
		List<Step> steps = List.of(step(1, 2.4, 410, 1, List.of(), none), step(2, 4.9, 410, 2, List.of(), none),
				step(4, 9.7, 412, 4, List.of(), none), step(8, 19.3, 414, 8, List.of(), none),
				step(16, 24.3, 660, 10, List.of(at16), meters), step(32, 24.4, 1310, 10, List.of(at32), meters));
		return SweepResults.analysed("test", URI.create("http://localhost/"), steps, true, rates);
	}

	private static Step step(int users, double rps, long latencyMs, int connections, List<ThreadDump> dumps,
			GaugeTimeline meters) {
		Duration window = Duration.ofSeconds(10);
		LoadResult result = LoadResults.closedLoop("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(latencyMs));
		return new Step(users, result, meters, new GaugeTimeline(Map.of()), Optional.empty(), List.of(),
				OptionalInt.empty(), dumps,
				List.of(new Step.Destination("pricing:8080", "172.18.0.5:8080", connections, connections, 12)), window);
	}

	/**
	 * {@code count} request threads of a pool named {@code pool}, each in {@code frames}.
	 */
	private static List<DumpedThread> threads(int count, String pool, List<String> frames) {
		List<String> stack = new ArrayList<>(frames);
		stack.addAll(List.of("org.springframework.web.servlet.FrameworkServlet.service", REQUEST,
				"org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker", "java.lang.Thread.run"));
		List<DumpedThread> threads = new ArrayList<>();
		for (int i = 1; i <= count; i++) {
			threads.add(new DumpedThread(pool + i, stack));
		}
		return threads;
	}

	@SafeVarargs
	private static ThreadDump dump(List<DumpedThread>... groups) {
		List<DumpedThread> threads = new ArrayList<>();
		for (List<DumpedThread> group : groups) {
			threads.addAll(group);
		}
		return new ThreadDump(Path.of("threads-4.json"), threads);
	}

}
