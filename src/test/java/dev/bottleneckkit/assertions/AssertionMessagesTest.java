package dev.bottleneckkit.assertions;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.probe.PinningReport;
import dev.bottleneckkit.probe.PinningReport.PinnedEvent;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Search;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import dev.bottleneckkit.sweep.Verdict;
import org.assertj.core.error.ErrorMessageFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every assertion message, one factory class each, pinned word for word on results made
 * by hand, under a default locale that writes "10,0": the figures are the kit's
 * ({@code Locale.ROOT}), and an {@code as(...)} description goes in front.
 */
class AssertionMessagesTest {

	private static final SweepResult POOL_OF_FIVE = SweepResults.cappedByAPoolOfFive();

	private static final Confirmation HELD = new Confirmation("HttpClient 10 a route", true, 9.9, 19.6, 19.8,
			"10 connections / 0.505 s", List.of(), Optional.empty(), Duration.ofSeconds(30), OptionalDouble.empty(),
			OptionalDouble.empty());

	private static final Confirmation DID_NOT_HOLD = new Confirmation("HttpClient 10 a route", false, 9.9, 10.1, 19.8,
			"10 connections / 0.505 s", List.of(), Optional.empty(), Duration.ofSeconds(30), OptionalDouble.empty(),
			OptionalDouble.empty());

	private static final Search TWO_STARTS = new Search(16, 1.98, 1,
			List.of(new Search.Try("HttpClient 7 a route", 7, 13.9, 13.8),
					new Search.Try("HttpClient 8 a route", 8, 15.8, 15.7)),
			Optional.empty(), Duration.ofSeconds(60));

	private static final PinningReport TWO_PINS = new PinningReport(Path.of("pins.jfr"),
			List.of(pin("com.mysql.cj.NativeSession.execSQL"), pin("org.example.Cache.load")));

	private Locale before;

	@BeforeEach
	void aLocaleWithADecimalComma() {
		this.before = Locale.getDefault();
		Locale.setDefault(Locale.GERMANY);
	}

	@AfterEach
	void restoreTheLocale() {
		Locale.setDefault(this.before);
	}

	@Test
	void sweepMessages() {
		Verdict capped = POOL_OF_FIVE.verdict();
		assertThat(firstLine(ShouldBeCappedBy.shouldBeCappedBy(POOL_OF_FIVE, Resource.HIKARI_POOL)))
			.isEqualTo("expected the cap to be Hikari connection pool, but the sweep says: " + capped);
		assertThat(firstLine(
				ShouldBeCappedBy.shouldHoldWhenPutToTheTest(POOL_OF_FIVE, Resource.HTTP_CLIENT_POOL, DID_NOT_HOLD)))
			.isEqualTo("the sweep names HttpClient connection pool, but the verdict was put to the test and did not"
					+ " hold: not confirmed: with HttpClient 10 a route the ceiling stayed at 10.1 rps (was 9.9,"
					+ " predicted 19.8 rps by 10 connections / 0.505 s) — the cap is elsewhere");
		assertThat(firstLine(ShouldBeConfirmed.shouldBePutToTheTest(POOL_OF_FIVE)))
			.isEqualTo("the verdict was not put to the test (Sweep.confirming(), a verdict that names a resource"
					+ " with a knob): " + capped);
		assertThat(firstLine(ShouldBeConfirmed.shouldHold(POOL_OF_FIVE, DID_NOT_HOLD)))
			.isEqualTo("the verdict did not hold: " + DID_NOT_HOLD.line());
		assertThat(firstLine(ShouldBeConfirmed.shouldBeNearItsPrediction(POOL_OF_FIVE, HELD, 0.005)))
			.isEqualTo("the verdict held, but the ceiling with the knob turned is 1 % from its prediction, allowed"
					+ " 1 %: confirmed: with HttpClient 10 a route the ceiling rose 9.9 → 19.6 rps (predicted 19.8"
					+ " rps, by 10 connections / 0.505 s)");
		assertThat(firstLine(ShouldNotBeConfirmed.shouldNotBeConfirmed(POOL_OF_FIVE)))
			.isEqualTo("expected the knob not to move the ceiling, but: the verdict was not put to the test");
		assertThat(firstLine(ShouldReachItsTarget.shouldHaveSearched(POOL_OF_FIVE)))
			.isEqualTo("no limit was searched for (Sweep.reaching(rps), a verdict that names a resource): " + capped);
		assertThat(firstLine(ShouldReachItsTarget.shouldFindALimit(POOL_OF_FIVE, TWO_STARTS)))
			.isEqualTo("no limit reached the target: did not reach 16.0 rps in 2 starts: HttpClient 7 a route 13.8 rps,"
					+ " HttpClient 8 a route 15.7 rps — the cap moved elsewhere");
		assertThat(firstLine(ShouldReachItsTarget.shouldTakeAtMost(POOL_OF_FIVE, TWO_STARTS, 1)))
			.isEqualTo("the search took 2 starts, allowed 1: " + TWO_STARTS.line());
		assertThat(firstLine(ShouldBeUnexplained.shouldBeUnexplained(POOL_OF_FIVE)))
			.isEqualTo("expected no resource to explain the ceiling, but the sweep says: " + capped);
		assertThat(firstLine(ShouldBeBoundByTheGenerator.shouldBeBoundByTheGenerator(POOL_OF_FIVE)))
			.isEqualTo("expected the load generator to be the cap, but the sweep says: " + capped);
		assertThat(firstLine(ShouldNotBeCappedBy.shouldNotBeCappedBy(POOL_OF_FIVE, Resource.HTTP_CLIENT_POOL)))
			.isEqualTo("expected HttpClient connection pool not to be the cap any more, but the sweep says: " + capped);
		assertThat(firstLine(ShouldHaveNoCap.shouldHaveNoCap(POOL_OF_FIVE)))
			.isEqualTo("expected no cap up to 16 users, but the sweep says: " + capped);
		assertThat(firstLine(ShouldHaveNoCap.shouldReach(SweepResults.stillRisingAt39Rps(), 100)))
			.isEqualTo("expected no cap below 100.0 rps, but the sweep never reached it: it stopped at 4 users and"
					+ " 39.0 rps, still rising; sweep up to more users (upToUsers) to reach 100.0 rps");
		assertThat(firstLine(ShouldHaveNoCap.shouldHaveNoCapBelow(POOL_OF_FIVE, 20)))
			.isEqualTo("expected no cap below 20.0 rps, but the service stopped at 10.0 rps: " + capped);
		assertThat(firstLine(ShouldHaveCeilingNearItsModel.shouldHaveAModel(SweepResults.stillRisingAt39Rps())))
			.isEqualTo("the verdict names no resource, so it has no model to hold the ceiling against: "
					+ SweepResults.stillRisingAt39Rps().verdict());
		Verdict.Capped model = (Verdict.Capped) capped;
		assertThat(firstLine(ShouldHaveCeilingNearItsModel.shouldHaveCeilingNearItsModel(POOL_OF_FIVE, model, 0.01)))
			.isEqualTo("the ceiling is " + Math.round(model.modelError() * 100) + " % from its model, allowed 1 %: "
					+ capped);
		SweepResult broken = SweepResults.everyAnswerA404();
		assertThat(firstLine(ShouldBeAnswered.shouldAnswerOneUser(broken, broken.steps().get(0))))
			.isEqualTo("the route fails for one user, so the sweep says nothing about its cap: 800 of 800 answers"
					+ " failed: 800 × http-404 — check the route, its method and headers, and the service's log");
		assertThat(firstLine(ShouldBeAnswered.shouldBeMostlyAnswered(broken, broken.steps().get(1))))
			.isEqualTo("with 2 users most answers were errors (1600 of 1600 answers failed: 1600 × http-404), so the"
					+ " sweep cannot say nothing caps the service: errors are how a cap that turns users away shows");
	}

	@Test
	void everySweepMessageEndsWithTheSweepsTable() {
		assertThat(ShouldHaveNoCap.shouldHaveNoCap(POOL_OF_FIVE).create())
			.endsWith(System.lineSeparator() + POOL_OF_FIVE.table());
	}

	@Test
	void loadMessages() {
		LoadResult capped = LoadResults.closedLoop("S1", 40, Duration.ofSeconds(10), 98, Duration.ofMillis(4000));
		Ceiling fivePerRoute = Ceiling.of(5, "connections per route", Duration.ofMillis(500));
		Ceiling forty = Ceiling.of(40, "connections per route", Duration.ofMillis(500));
		String run = System.lineSeparator() + "  run: " + capped.summary();
		assertThat(ShouldHaveThroughputNear.shouldHaveThroughputNear(capped, forty, 80, 0.15).create())
			.isEqualTo("measured 9.8 rps; expected 80.0 rps ±15 % — 40 users fit in 40 connections per route, so"
					+ " throughput should be users / latency = 80.0 rps" + run);
		assertThat(ShouldHaveThroughputNear.shouldHaveThroughputNear(capped, fivePerRoute, 10, 0.15).create())
			.isEqualTo("measured 9.8 rps; expected 10.0 rps ±15 % — 40 users share connections per route, so 5"
					+ " connections per route / 0.500 s = 10.0 rps is the cap (λ = L / W)" + run);
		LoadResult open = LoadResults.of("open", 0, Duration.ofSeconds(10), 98, Duration.ofMillis(500), List.of(),
				Duration.ZERO, 20);
		assertThat(firstLine(ShouldHaveThroughputNear.shouldHaveThroughputNear(open, fivePerRoute, 10, 0.15)))
			.isEqualTo("measured 9.8 rps; expected 10.0 rps ±15 % — 20.0 rps offered against 5 connections per route"
					+ " / 0.500 s = 10.0 rps (λ = L / W)");
		assertThat(ShouldHaveLatencyNear.shouldHaveMedianLatencyNear(capped, Duration.ofMillis(500), 0.2).create())
			.isEqualTo("median latency 4.00 s; expected 500 ms ±20 %" + run);
		assertThat(ShouldHaveLatencyNear.shouldHaveMeanLatencyNear(capped, Duration.ofMillis(500), 0.2).create())
			.isEqualTo("mean latency 4 s; expected 500 ms ±20 %" + run);
		assertThat(ShouldHaveQueued.shouldHaveMeanLatencyAtLeast(capped, 10, Duration.ofMillis(500)).create())
			.isEqualTo("mean latency 4 s is below 10.0 × 500 ms: requests did not queue for the capped resource" + run);
		assertThat(ShouldHaveQueued.shouldHaveMedianLatencyAtLeast(capped, 10, Duration.ofMillis(500)).create())
			.isEqualTo("median latency 4.00 s is below 10.0 × 500 ms: requests did not queue for the capped resource"
					+ run);
		LoadResult failed = LoadResults.closedLoop("S1", 2, Duration.ofSeconds(4), 0, Duration.ofMillis(5),
				Map.of("http-404", 412L, "read-timeout", 3L), Duration.ofMillis(5));
		assertThat(firstLine(ShouldHaveSucceeded.shouldHaveSucceeded(failed))).isEqualTo(
				"every request failed: 412 × http-404, 3 × read-timeout — check the route and the service's log");
		LoadResult none = LoadResults.closedLoop("S1", 2, Duration.ofSeconds(4), 0, Duration.ofMillis(5));
		assertThat(firstLine(ShouldHaveSucceeded.shouldHaveSucceeded(none)))
			.isEqualTo("no request completed inside the 4 s window: the service took longer than the window to answer");
		LoadResult busy = LoadResults.closedLoop("S1", 40, Duration.ofSeconds(10), 100, Duration.ofMillis(500), 0.97);
		assertThat(firstLine(ShouldNotBeBoundByTheGenerator.shouldNotBeBoundByTheGenerator(busy)))
			.isEqualTo("the load generator, not the service, was the cap: its busiest thread was on the CPU 97 % of"
					+ " the run, so it could not send faster; give the test JVM more CPU or the load fewer users");
		LoadResult someFailed = LoadResults.closedLoop("S1", 2, Duration.ofSeconds(4), 10, Duration.ofMillis(5),
				Map.of("http-503", 7L), Duration.ofMillis(5));
		assertThat(firstLine(ShouldHaveNoErrors.shouldHaveNoErrors(someFailed)))
			.isEqualTo("expected no errors but 7 requests failed: 7 × http-503");
	}

	@Test
	void pinningMessages() {
		String described = TWO_PINS.describe(15);
		assertThat(ShouldHaveNoPinnedThreads.shouldHaveNoPinnedThreads(TWO_PINS, 15).create())
			.isEqualTo("expected no pinned virtual threads, but found " + described);
		assertThat(ShouldHaveNoPinsCausedBy.shouldHaveNoPinsCausedBy(TWO_PINS, "com.mysql.cj.", 1, 15).create())
			.isEqualTo("expected no pinned virtual thread blocked in com.mysql.cj., but 1 of 2 were: " + described);
		assertThat(ShouldHavePinnedAtLeast.shouldHavePinnedAtLeast(TWO_PINS, 3, 15).create())
			.isEqualTo("expected at least 3 pinned events, but found " + described);
		assertThat(ShouldHaveEveryPinInCode.shouldHaveEveryPinInCode(TWO_PINS, "com.mysql.cj.", 1, 15).create())
			.isEqualTo("expected every pinned stack to hold a frame of com.mysql.cj., but 1 of 2 do not: " + described);
	}

	/** The assertions throw these messages, with their description in front. */
	@Test
	void anAssertionThrowsItsMessageWithItsDescription() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(POOL_OF_FIVE).as("S1").isCappedBy(Resource.HIKARI_POOL))
			.withMessage("[S1] " + ShouldBeCappedBy.shouldBeCappedBy(POOL_OF_FIVE, Resource.HIKARI_POOL).create());
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(TWO_PINS).hasPinnedAtLeast(3))
			.withMessage(ShouldHavePinnedAtLeast.shouldHavePinnedAtLeast(TWO_PINS, 3, 15).create());
	}

	private static String firstLine(ErrorMessageFactory message) {
		return message.create().lines().findFirst().orElseThrow();
	}

	private static PinnedEvent pin(String culprit) {
		return new PinnedEvent(Instant.EPOCH, Duration.ofMillis(20), "tomcat-handler-1",
				List.of("java.lang.Object.wait", culprit, "org.example.Controller.get"));
	}

}
