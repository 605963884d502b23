package dev.bottleneckkit.sweep.internal.kinds;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.internal.analysis.Attribution;
import dev.bottleneckkit.sweep.internal.run.Readings;
import dev.bottleneckkit.sweep.internal.run.SweepRun;
import dev.bottleneckkit.sweep.internal.waits.Upstream;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * A limit only the team's service has, declared by the test: a pool of 3 renderers the
 * team's code takes one from for 0.25 s a request, behind which the JDK client's
 * connections to the renderer's backend stay flat at 3. The kit knows no such pool; told
 * its meters, it names it in the team's words, with what a request holds of it read below
 * the cap.
 */
class OwnKindTest {

	private static final Resource.Own RENDERERS = Resource.own("renderers")
		.limitFrom("stock.renderers.size")
		.inUseFrom("stock.renderers.busy");

	private static final List<String> WAITING = List.of("jdk.internal.misc.Unsafe.park",
			"java.util.concurrent.ArrayBlockingQueue.take", "com.example.stock.Renderers.take",
			"com.example.stock.StockApplication.render", "org.apache.catalina.core.ApplicationFilterChain.doFilter",
			"java.lang.Thread.run");

	private static final List<String> GUAVA_WAITING = List.of("java.lang.Thread.sleep",
			"java.util.concurrent.TimeUnit.sleep",
			"com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly",
			"com.google.common.util.concurrent.RateLimiter$SleepingStopwatch$1.sleepMicrosUninterruptibly",
			"com.google.common.util.concurrent.RateLimiter.acquire",
			"com.google.common.util.concurrent.RateLimiter.acquire", "com.example.shop.ShopApplication.suppliers",
			"org.apache.catalina.core.ApplicationFilterChain.doFilter", "java.lang.Thread.run");

	/**
	 * Below the cap, 0.98 renderers were in use on average for 3.9 rps at 1 user and 1.95
	 * for 7.8 rps at 2, over windows of 10 s: 29.3 renderer-seconds for 117 requests,
	 * 0.25 s a request (D = U / X), so 3 renderers give 12 rps; 11.9 was measured.
	 * Without the declaration the flat connections would name a pool that does not exist.
	 */
	@Test
	void aDeclaredResourceFullAtTheCapIsNamedInTheTeamsWords() {
		SweepResult sweep = analysed(renderers(3, 1.95, 3), RENDERERS);

		assertThat(sweep).isCappedBy(Resource.OWN)
			.hasCeilingNearItsModel(withPercentage(2))
			.isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(sweep.verdict().line()).isEqualTo("capped at 11.9 rps from 4 users: renderers (the team's own,"
				+ " declared by the test): 3/3 in use — 3 renderers / 0.250 s = 12.0 rps");
		Verdict.Capped capped = (Verdict.Capped) sweep.verdict();
		assertThat(capped.where()).contains("renderers");
		assertThat(capped.readings()).containsEntry("limit", "3 from stock.renderers.size")
			.containsEntry("a request's hold", "0.250 s: held 29.3 s for 117 requests at 1 and 2 users (4 samples)");
	}

	/**
	 * The same route undeclared, its request threads seen waiting on the renderers'
	 * queue: no rule knows the renderers, so the verdict is unexplained with what the
	 * dumps saw full, in words a person acts on, and puts no pool's name on the flat
	 * connections behind it. A declared sweep keeps that line beside its verdict.
	 */
	@Test
	void withoutTheDeclarationItIsUnexplainedWithWhatTheDumpsSaw() {
		String waiting = "5 request threads waiting for an object from a queue (ArrayBlockingQueue.take) in"
				+ " com.example.stock.Renderers.take";

		SweepResult undeclared = analysed(waitingAtTheCap(renderers(3, 1.95, 3)));
		SweepResult declared = analysed(waitingAtTheCap(renderers(3, 1.95, 3)), RENDERERS);

		assertThat(undeclared).isUnexplained().isNotCappedBy(Resource.CONNECTION_POOL);
		assertThat(undeclared.verdict().line())
			.startsWith("capped at 11.9 rps from 4 users, and no rule names what held the requests back: " + waiting);
		assertThat(declared).isCappedBy(Resource.OWN);
		assertThat(((Verdict.Capped) declared.verdict()).readings()).containsEntry(Verdict.Capped.UNDECLARED,
				undeclared.verdict().line());
	}

	/**
	 * Request threads waiting on a queue a library takes from wait on that library's
	 * pool, not the team's: an idle executor's worker, a client's own queue.
	 */
	@Test
	void aQueueALibraryTakesFromIsNoWaitOfTheTeams() {
		DumpedThread worker = new DumpedThread("http-nio-8080-exec-1",
				List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.ArrayBlockingQueue.poll",
						"org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection",
						"com.example.stock.StockApplication.render",
						"org.apache.catalina.core.ApplicationFilterChain.doFilter", "java.lang.Thread.run"));

		assertThat(Upstream.waitOf(worker, List.of(), ResourceKinds.permits())).isEmpty();
		assertThat(
				Upstream.waitOf(new DumpedThread("http-nio-8080-exec-2", WAITING), List.of(), ResourceKinds.permits()))
			.hasValueSatisfying((wait) -> assertThat(wait.kind()).isEqualTo(Upstream.Kind.QUEUE));
	}

	/** A declared resource never full at the cap is no cap, whatever its limit. */
	@Test
	void aDeclaredResourceNeverFullIsNoCap() {
		SweepResult sweep = analysed(renderers(3, 1.95, 2), RENDERERS);

		assertThat(sweep).isNotCappedBy(Resource.OWN);
	}

	/**
	 * Without meters, its configured limit and the frame its waiters wait in: request
	 * threads waiting there in every dump at the cap, and its model over W₁.
	 */
	@Test
	void aDeclaredResourceWithoutMetersIsNamedByItsWaiters() {
		SweepResult sweep = analysed(waitingAtTheCap(renderers(3, 1.95, 3)),
				Resource.own("renderers").limit(3).waitingIn("com.example.stock.Renderers.take"));

		assertThat(sweep).isCappedBy(Resource.OWN).hasCeilingNearItsModel(withPercentage(5));
		assertThat(sweep.verdict().line()).isEqualTo("capped at 11.9 rps from 4 users: renderers (the team's own,"
				+ " declared by the test): 3 of them, 5 request threads waiting in com.example.stock.Renderers.take"
				+ " — 3 renderers / 0.256 s = 11.7 rps");
	}

	/**
	 * A rate kept in the team's code, Guava's {@code RateLimiter.create(12)}: no meter
	 * and no configuration shows it, so the test declares it with where its waiters wait.
	 * It is named at its rate, its model holding no latency; undeclared, the same
	 * readings are unexplained with the wait the dumps saw.
	 */
	@Test
	void aRateOfTheTeamsOwnIsNamedByItsWaitersAtItsRate() {
		List<Step> steps = waitingAtTheCap(renderers(3, 1.95, 3), GUAVA_WAITING);
		Resource.Own suppliers = Resource.own("supplier calls")
			.permitsPerSecond(12)
			.waitingIn("com.google.common.util.concurrent.RateLimiter.acquire");

		SweepResult sweep = analysed(steps, suppliers);

		assertThat(sweep).isCappedBy(Resource.OWN).hasCeilingNearItsModel(withPercentage(2));
		assertThat(sweep.verdict().line()).isEqualTo("capped at 11.9 rps from 4 users: supplier calls (the team's own,"
				+ " declared by the test): 12 permits a second, 5 request threads waiting in"
				+ " com.google.common.util.concurrent.RateLimiter.acquire — 12 permits / 1.000 s = 12.0 rps");
		assertThat(((Verdict.Capped) sweep.verdict()).where()).contains("supplier calls");
		assertThat(analysed(steps).verdict().line()).contains("waiting for a Guava rate limiter in com.example");
		assertThat(analysed(renderers(3, 1.95, 3), suppliers)).isNotCappedBy(Resource.OWN);
	}

	/**
	 * A bursty rate limiter stores a second of permits while idle between two steps: a
	 * step's warm-up lasts until its users have spent them, so its window reads the rate.
	 * 4 users of 0.207 s ask 19.3 a second of a limiter of 12, ramped up over the first
	 * half of the warm-up, and spend its 12 stored permits and those it gives meanwhile
	 * in 4.8 s; 8 users in 0.7 s; 2 users never reach it.
	 */
	@Test
	void aDeclaredRatesStoredPermitsAreSpentBeforeAStepsWindow() {
		Duration w1 = Duration.ofMillis(207);

		assertThat(SweepRun.storeSpent(4, w1, List.of(12.0)).toMillis()).isBetween(4810L, 4830L);
		assertThat(SweepRun.storeSpent(8, w1, List.of(12.0)).toMillis()).isBetween(700L, 712L);
		assertThat(SweepRun.storeSpent(2, w1, List.of(12.0))).isZero();
		assertThat(SweepRun.storeSpent(4, w1, List.of())).isZero();
		assertThat(SweepRun.storeSpent(4, w1, List.of(19.0))).isEqualTo(Duration.ofSeconds(10));
	}

	/** A declaration that could never name its resource fails in one line. */
	@Test
	void aDeclarationWithoutALimitOrAWayToSeeItFullIsRefused() {
		Sweep sweep = Sweep.of(URI.create("http://localhost:8080/render"));

		assertThatIllegalArgumentException().isThrownBy(() -> sweep.knowing(Resource.own("renderers").limit(3)))
			.withMessage("Resource.own(\"renderers\") needs what shows it full: inUseFrom(meter) or waitingIn(frame)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> sweep.knowing(Resource.own("renderers").inUseFrom("stock.renderers.busy")))
			.withMessage("Resource.own(\"renderers\") needs its limit: limitFrom(meter), limit(configured) or"
					+ " permitsPerSecond(rate); or, alone, where its waiters wait: waitingIn(frame)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> sweep.knowing(Resource.own("supplier calls").permitsPerSecond(12)))
			.withMessage(
					"Resource.own(\"supplier calls\") is a rate: it needs where its waiters wait, waitingIn(frame)");
		assertThatIllegalArgumentException().isThrownBy(() -> Resource.own(" "))
			.withMessageContaining("needs the words the verdict names it by");
	}

	/**
	 * Steps of 1 to 16 users, 0.256 s a request alone: the renderers' meters read
	 * {@code size}, a mean of {@code meanAtTwo} in use at 2 users, and at most
	 * {@code busyAtCap} from 4 users on, where throughput is flat at 11.9 rps and the
	 * connections flat at 3.
	 */
	private static List<Step> renderers(int size, double meanAtTwo, int busyAtCap) {
		return List.of(step(1, 3.9, 256, meters(size, 0.98, 1)), step(2, 7.8, 256, meters(size, meanAtTwo, 2)),
				step(4, 11.8, 339, meters(size, busyAtCap - 0.1, busyAtCap)),
				step(8, 11.9, 672, meters(size, busyAtCap - 0.05, busyAtCap)),
				step(16, 11.9, 1345, meters(size, busyAtCap - 0.05, busyAtCap)));
	}

	/**
	 * Samples whose mean is {@code mean} and whose highest is {@code max}, taken in the
	 * step's window (after its warm-up of at most 1 s).
	 */
	private static GaugeTimeline meters(int size, double mean, int max) {
		double low = 2 * mean - max;
		return new GaugeTimeline(Map.of("stock.renderers.size",
				List.of(new GaugeTimeline.Sample(Duration.ofSeconds(1), size),
						new GaugeTimeline.Sample(Duration.ofSeconds(2), size)),
				"stock.renderers.busy", List.of(new GaugeTimeline.Sample(Duration.ofSeconds(1), max),
						new GaugeTimeline.Sample(Duration.ofSeconds(2), low))));
	}

	private static Step step(int users, double rps, long latencyMs, GaugeTimeline meters) {
		Duration window = Duration.ofSeconds(10);
		LoadResult result = LoadResults.closedLoop("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(latencyMs));
		int connections = Math.min(users, 3);
		return new Step(users, result, meters, new GaugeTimeline(Map.of()), Optional.empty(), List.of(),
				OptionalInt.empty(), List.of(),
				List.of(new Step.Destination("renderer:8080", "172.18.0.5:8080", connections, connections, 12)),
				window);
	}

	/**
	 * {@code steps} with 5 request threads waiting for a renderer in a dump of each step
	 * at the cap.
	 */
	private static List<Step> waitingAtTheCap(List<Step> steps) {
		return waitingAtTheCap(steps, WAITING);
	}

	private static List<Step> waitingAtTheCap(List<Step> steps, List<String> frames) {
		List<DumpedThread> threads = new ArrayList<>();
		for (int i = 1; i <= 5; i++) {
			threads.add(new DumpedThread("http-nio-8080-exec-" + i, frames));
		}
		ThreadDump dump = new ThreadDump(Path.of("threads-4.json"), threads);
		List<Step> waiting = new ArrayList<>(steps);
		waiting.replaceAll((step) -> (step.users() >= 4) ? withDump(step, dump) : step);
		return waiting;
	}

	private static Step withDump(Step step, ThreadDump dump) {
		return new Step(step.users(), step.result(), step.service(), step.downstream(), step.cpu(), step.pinned(),
				step.carriers(), List.of(dump), step.connections(), step.wall());
	}

	private static SweepResult analysed(List<Step> steps, Resource.Own... own) {
		Readings readings = Readings.of(steps, true);
		return SweepResults.of(readings, Attribution.of(readings, List.of(own)));
	}

}
