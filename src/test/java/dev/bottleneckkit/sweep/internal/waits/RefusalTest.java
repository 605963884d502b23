package dev.bottleneckkit.sweep.internal.waits;

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
import dev.bottleneckkit.sweep.Step;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The stock service's /guarded: a {@code Semaphore.tryAcquire()} of 8 around a 0.5 s call
 * to the quote service, the ninth request answered 503 at once. Its dumps from a sweep of
 * the branch (1, 2, 4 and 8 users, then one at 16), each step's throughput and failures
 * as the sweep read them.
 */
class RefusalTest {

	static final Duration W1 = Duration.ofMillis(509);

	@Test
	void aSemaphoreThatAnswers503IsNamedFromItsFailures() {
		Refusal refusal = Refusal.of(steps(3_700), SiteReadingTest.REQUESTS, 16, W1).orElseThrow();

		System.out.println("stock /guarded: " + refusal.saw() + String.format(" — %.1f rps", refusal.modelRps()));
		assertThat(refusal.holders()).isEqualTo(8);
		assertThat(refusal.site())
			.hasValue(new WaitSite(Primitive.FUTURE, "com.example.stock.StockApplication.quoteBytes"));
		assertThat(refusal.failure()).isEqualTo("http-503");
		assertThat(refusal.modelRps()).isCloseTo(15.6, within(0.15 * 15.6));
		assertThat(refusal.saw()).isEqualTo("beyond 8 at once, requests fail with http-503: 8 holders, the successful"
				+ " requests in flight, waiting in `com.example.stock.StockApplication.quoteBytes` (a future)");
	}

	/**
	 * The holders are the load's count, not the dumps': a dump of the 16-user step that
	 * caught a permit between two calls, or one taken after its fast failures had ended
	 * the step, moves nothing. A nightly read "beyond 7 at once" from three dumps.
	 */
	@Test
	void theHoldersAreTheSuccessfulRequestsInFlightNotADumpsCount() {
		List<Step> steps = new ArrayList<>(steps(3_700));
		Step top = steps.remove(steps.size() - 1);
		// The same step with only a dump of the idle service after its window.
		steps.add(new Step(top.users(), top.result(), top.service(), top.downstream(), Optional.empty(), List.of(),
				OptionalInt.empty(), List.of(StockDumps.read("guarded-1")), List.of(), top.wall()));

		assertThat(Refusal.of(steps, SiteReadingTest.REQUESTS, 16, W1).orElseThrow().holders()).isEqualTo(8);
	}

	/**
	 * Successful requests in flight that grew with the users are no refusing limit's,
	 * whatever failed beside them.
	 */
	@Test
	void successesThatGrowWithTheUsersAreNoLimit() {
		List<Step> steps = new ArrayList<>(steps(3_700));
		Step top = steps.remove(steps.size() - 1);
		steps.add(new Step(top.users(), LoadResults.withSuccessesInFlight(top.result(), 14), top.service(),
				top.downstream(), Optional.empty(), List.of(), OptionalInt.empty(), top.threads(), List.of(),
				top.wall()));
		List<Step> refusingAt8 = steps.stream()
			.map((step) -> (step.users() == 8) ? new Step(8, failing(step.result()), step.service(), step.downstream(),
					Optional.empty(), List.of(), OptionalInt.empty(), step.threads(), List.of(), step.wall()) : step)
			.toList();

		assertThat(Refusal.of(refusingAt8, SiteReadingTest.REQUESTS, 16, W1)).isEmpty();
	}

	/** {@code result} with a fifth of its answers failed, 8 at once succeeding. */
	private static LoadResult failing(LoadResult result) {
		return LoadResults.withSuccessesInFlight(LoadResults.closedLoop("load", result.users(), result.window(),
				result.succeeded(), W1, Map.of("http-503", result.succeeded() / 4), Duration.ofMillis(2)), 8);
	}

	/**
	 * The same dumps without a failure: nothing was turned away, and no refusal is named.
	 */
	@Test
	void withoutFailuresNothingRefused() {
		assertThat(Refusal.of(steps(0), SiteReadingTest.REQUESTS, 16, W1)).isEmpty();
	}

	/** A few failures, under a tenth of the answers, are no cap's. */
	@Test
	void aFewFailuresAreNoCap() {
		assertThat(Refusal.of(steps(10), SiteReadingTest.REQUESTS, 16, W1)).isEmpty();
	}

	private List<Step> steps(long failedAt16) {
		return List.of(step(1, 2.0, 0, "guarded-1"), step(2, 3.9, 0, "guarded-2"), step(4, 7.9, 0, "guarded-3"),
				step(8, 15.8, 0, "guarded-4", "guarded-5"), step(16, 15.6, failedAt16, "guarded-6"));
	}

	private Step step(int users, double rps, long failed, String... dumps) {
		Duration window = Duration.ofSeconds(10);
		// The load reads the successful requests in flight from every request's life: the
		// users, up to the semaphore's 8.
		LoadResult result = LoadResults.withSuccessesInFlight(
				LoadResults.closedLoop("load", users, window, Math.round(rps * 10), W1,
						(failed > 0) ? Map.of("http-503", failed) : Map.of(), Duration.ofMillis(2)),
				Math.min(users, 8));
		List<ThreadDump> taken = new ArrayList<>();
		for (String dump : dumps) {
			taken.add(StockDumps.read(dump));
		}
		return new Step(users, result, new GaugeTimeline(Map.of()), new GaugeTimeline(Map.of()), Optional.empty(),
				List.of(), OptionalInt.empty(), taken, List.of(), window);
	}

}
