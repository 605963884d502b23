package dev.bottleneckkit.sweep.internal.waits;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * Sweeps of the stock services, read from where their requests waited alone: the dumps of
 * the nightly's run of 1e861fd (the request threads and the pools' workers kept), each
 * step's users and throughput, and W₁, from its results. No kind is asked but where a
 * test says so: the verdicts the kinds gave that run are the check.
 */
class SiteReadingTest {

	static final Predicate<DumpedThread> REQUESTS = (thread) -> thread.frames()
		.stream()
		.anyMatch((frame) -> frame.startsWith("org.apache.catalina.core.ApplicationFilterChain"));

	/**
	 * The shop's stock checks: a {@code Semaphore} of 3 in the team's handler. The kit's
	 * bulkhead rule read "3/3 permits held, 5 request threads waiting — 3 permits / 0.207
	 * s = 14.5 rps" at 14.7 rps.
	 */
	@Test
	void aSemaphoreInTheTeamsHandler() {
		List<Step> steps = List.of(step(1, 4.7, "stock-check-1"), step(2, 9.6, "stock-check-2"),
				step(4, 14.6, "stock-check-3"), step(8, 14.7, "stock-check-4", "stock-check-5"));

		SiteReading.Cap cap = SiteReading.cap(SiteReading.of(steps, REQUESTS), 8, Duration.ofNanos(207_415_094))
			.orElseThrow();

		System.out.println("shop /stock-check: " + cap.line());
		assertThat(cap.site())
			.isEqualTo(new WaitSite(Primitive.SEMAPHORE, "com.example.shop.ShopApplication.stockCheck"));
		assertThat(cap.holders()).isEqualTo(3);
		assertThat(cap.modelRps()).isCloseTo(14.7, within(0.15 * 14.7));
	}

	/**
	 * The shop's rates: a Resilience4j bulkhead of 4. The kit read "4/4 permits held, 4
	 * request threads waiting — 4 permits / 0.207 s = 19.3 rps" at 19.7 rps.
	 */
	@Test
	void aLibrarysBulkhead() {
		List<Step> steps = List.of(step(1, 4.7, "rates-1"), step(2, 9.7, "rates-2"), step(4, 19.3, "rates-3"),
				step(8, 19.7, "rates-4", "rates-5"));

		SiteReading.Cap cap = SiteReading.cap(SiteReading.of(steps, REQUESTS), 8, Duration.ofNanos(206_962_327))
			.orElseThrow();

		System.out.println("shop /rates: " + cap.line());
		assertThat(cap.site()).isEqualTo(new WaitSite(Primitive.SEMAPHORE,
				"io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead.tryEnterBulkhead"));
		assertThat(cap.holders()).isEqualTo(4);
		assertThat(cap.modelRps()).isCloseTo(19.7, within(0.15 * 19.7));
	}

	/**
	 * The same two sweeps read whole, every kind asked: the bulkhead kind claims both
	 * wait sites, a semaphore's, and says whose permits they are. Its model is the
	 * holders the dumps found over W₁, as before the kind read its own dumps.
	 */
	@Test
	void theBulkheadKindClaimsASemaphoresSite() {
		SweepResult stockCheck = SweepResults.analysed("stock-check", URI.create("http://shop:8080/stock-check"),
				List.of(step(1, 4.7, "stock-check-1"), step(2, 9.6, "stock-check-2"), step(4, 14.6, "stock-check-3"),
						step(8, 14.7, "stock-check-4", "stock-check-5")),
				true);
		SweepResult rates = SweepResults
			.analysed(
					"rates", URI.create("http://shop:8080/rates"), List.of(step(1, 4.7, "rates-1"),
							step(2, 9.7, "rates-2"), step(4, 19.3, "rates-3"), step(8, 19.7, "rates-4", "rates-5")),
					true);

		assertThat(stockCheck).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(15));
		assertThat(stockCheck.verdict().line()).contains("a semaphore: 3/3 permits held; requests wait in"
				+ " `com.example.shop.ShopApplication.stockCheck` (a semaphore)");
		assertThat(rates).isCappedBy(Resource.BULKHEAD).hasCeilingNearItsModel(withPercentage(15));
		assertThat(rates.verdict().line()).contains("a Resilience4j bulkhead: 4/4 permits held; requests wait in"
				+ " `io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead.tryEnterBulkhead` (a semaphore)");
	}

	/**
	 * The stock service's labels: 3 renderers in a queue the team takes from and puts
	 * back by hand. The kit named them only as the test declared them: "renderers (the
	 * team's own, declared by the test): 3/3 in use" at 15.0 rps.
	 */
	@Test
	void aQueueOfTheTeamsOwnUndeclared() {
		List<Step> steps = List.of(step(1, 4.9, "label-1"), step(2, 9.8, "label-2"), step(4, 14.9, "label-3"),
				step(8, 15.0, "label-4", "label-5", "label-6"));

		SiteReading.Cap cap = SiteReading.cap(SiteReading.of(steps, REQUESTS), 8, Duration.ofNanos(204_039_812))
			.orElseThrow();

		System.out.println("stock /label: " + cap.line());
		assertThat(cap.site()).isEqualTo(new WaitSite(Primitive.QUEUE, "com.example.stock.StockApplication.label"));
		assertThat(cap.holders()).isEqualTo(3);
		assertThat(cap.modelRps()).isCloseTo(15.0, within(0.15 * 15.0));
	}

	/**
	 * Below the cap no site's waiters grow: the stock checks' steps up to 2 users name
	 * none.
	 */
	@Test
	void belowTheCapNoSiteIsNamed() {
		List<Step> steps = List.of(step(1, 4.7, "stock-check-1"), step(2, 9.6, "stock-check-2"));

		assertThat(SiteReading.cap(SiteReading.of(steps, REQUESTS), 2, Duration.ofNanos(207_415_094))).isEmpty();
	}

	private Step step(int users, double rps, String... dumps) {
		Duration window = Duration.ofSeconds(10);
		LoadResult result = LoadResults.closedLoop("load", users, window, Math.round(rps * 10),
				Duration.ofMillis(Math.round(users / rps * 1000)));
		List<ThreadDump> taken = new ArrayList<>();
		for (String dump : dumps) {
			taken.add(StockDumps.read(dump));
		}
		return new Step(users, result, new GaugeTimeline(Map.of()), new GaugeTimeline(Map.of()), Optional.empty(),
				List.of(), OptionalInt.empty(), taken, List.of(), window);
	}

}
