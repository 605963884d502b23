package dev.bottleneckkit.scenarios;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.scenarios.lab.InFlightProbe.InFlight;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.awaitility.Awaitility.await;

/**
 * S10 (seeds 002 and 003: {@code StructuredTaskScope} against
 * {@code CompletableFuture.allOf}): the caller's {@code /call/fanout} makes two
 * downstream calls at once. One goes straight to the downstream's {@code /work/steps};
 * the other goes through Toxiproxy, which makes it the slow branch or the failing one.
 * <ul>
 * <li>Both healthy: the fan-out takes as long as its slowest branch, not the sum, and the
 * downstream sees both branches of every user in flight together.</li>
 * <li>The proxied branch fails (Toxiproxy resets it): the structured join fails at once
 * and interrupts the sibling, whose request the downstream sees abandoned;
 * {@code allOf(..).join()} fails only after the sibling has run its full time, and the
 * downstream does all of that work for an answer nobody reads.</li>
 * </ul>
 * The structured join is the lab's {@code ShutdownOnFailureScope}: the behaviour of JDK
 * 21's {@code StructuredTaskScope.ShutdownOnFailure} on final APIs, because the preview
 * API differs between the kit's Java 21 and Java 25 images.
 */
@Scenario(id = "S10", title = "Structured fan-out: the slowest branch sets the latency, a failure cancels the sibling")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StructuredFanOutIT {

	/**
	 * The direct branch's work on the downstream ({@code /work/steps}) when both branches
	 * are healthy.
	 */
	static final Duration DIRECT_LATENCY = Duration.ofMillis(400);

	/** The proxied branch's own latency ({@code /work/sleep}) ... */
	static final Duration PROXIED_LATENCY = Duration.ofMillis(100);

	/**
	 * ... and what Toxiproxy adds to it, making it the slowest branch: 700 ms against 400
	 * ms.
	 */
	static final Duration ADDED_LATENCY = Duration.ofMillis(600);

	/**
	 * The sibling's work when the proxied branch fails: long, so that cancelling it is
	 * worth something. 1 s is two and a half times the failing branch's 400 ms, so a join
	 * that fails with its first failure and one that waits for the sibling stay far apart
	 * in every percentile; 2 s showed nothing more and doubled the turns.
	 */
	static final Duration SIBLING_LATENCY = Duration.ofSeconds(1);

	/**
	 * Toxiproxy resets the proxied branch's connection this long after its request
	 * arrived.
	 */
	static final Duration FAIL_AFTER = Duration.ofMillis(200);

	/**
	 * When the failing branch gives up: HttpClient 5's default retry strategy sends an
	 * idempotent GET once more after a connection reset, so the branch fails after two
	 * resets.
	 */
	static final Duration BRANCH_FAILS_AFTER = FAIL_AFTER.multipliedBy(2);

	/**
	 * Users: fewer than the default pool's 5 connections per route, so the pool is not
	 * the cap.
	 */
	static final int USERS = 4;

	static final int PROXY_PORT = 8666;

	/**
	 * How late the downstream may end a 50 ms step of {@code /work/steps}, or a sleep of
	 * {@code /work/sleep} (woken late, a write, a flush) on these shared cores.
	 */
	static final Duration LATE_A_STEP = Duration.ofMillis(4);

	/**
	 * Both branches healthy: the downstream holds the direct branch 400 ms (8 steps) and
	 * the proxied one 100 ms, a mean of 250 to (432 + 104) / 2 = 268 ms a branch.
	 */
	static final BranchWork HEALTHY = BranchWork.of("each branch held for its own work", DIRECT_LATENCY,
			PROXIED_LATENCY);

	/**
	 * A wrong model, kept to show the bound can fail: the downstream holding the proxied
	 * branch for the latency Toxiproxy adds too, 700 ms.
	 */
	static final BranchWork PROXY_HELD_AT_THE_DOWNSTREAM = BranchWork.of(
			"the proxied branch held at the downstream for its 700 ms", DIRECT_LATENCY,
			PROXIED_LATENCY.plus(ADDED_LATENCY));

	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(1))
		.forDuration(Duration.ofSeconds(4));

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network);

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	/**
	 * One caller for every case: the join is chosen per request, the fault by the proxy's
	 * toxics.
	 */
	@Container
	static final LabServiceContainer caller = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withNamedDownstream("proxied", "http://toxiproxy:" + PROXY_PORT);

	static Proxy proxy;

	@BeforeAll
	static void proxyTheSecondBranch() {
		proxy = KitContainers.proxy(toxiproxy, "proxied", PROXY_PORT,
				LabServiceContainer.DOWNSTREAM_ALIAS + ":" + LabServiceContainer.PORT);
	}

	@AfterEach
	void healTheNetwork() {
		KitContainers.heal(proxy);
	}

	@Test
	@Order(1)
	void theFanOutTakesAsLongAsItsSlowestBranch(ScenarioReport report) throws IOException {
		Duration slowest = PROXIED_LATENCY.plus(ADDED_LATENCY);
		proxy.toxics().latency("slow-branch", ToxicDirection.DOWNSTREAM, ADDED_LATENCY.toMillis());

		for (String join : new String[] { "structured", "futures" }) {
			downstream.inFlight().reset();
			LoadResult result = LOAD.named(join + ", both branches healthy")
				.run(caller.uri(fanOut(join, DIRECT_LATENCY)));
			InFlight seen = downstream.inFlight().read();
			// The fan-out as one user sees it on the warmed caller: the slowest branch
			// plus the caller's hops, the W of the model. One user's requests follow one
			// another, so the downstream holds both branches of one request at once,
			// never more: 2 is the fan-out, 1 a sequence.
			downstream.inFlight().reset();
			Duration alone = ClosedLoopLoad.oneUser().run(caller.uri(fanOut(join, DIRECT_LATENCY))).median();
			InFlight seenAlone = downstream.inFlight().read();
			Ceiling users = Ceiling.of(USERS, "users, each waiting for the slowest branch", alone);

			report.record(join + ": branches of 400 ms and 100 ms + 600 ms", result, users,
					ScenarioReport.evidence("W₁ (one user)", alone.toMillis() + " ms",
							"downstream peak in flight, one user", seenAlone.peak(), "downstream peak in flight",
							seen.peak(), "sum of the branches", DIRECT_LATENCY.plus(slowest).toMillis() + " ms",
							"a branch's mean time at the downstream", seen.meanServiceTime().toMillis() + " ms"));
			assertThat(alone)
				.as("%s: one user's fan-out takes its slowest branch (700 ms), not the sum (1100 ms)", join)
				.isBetween(slowest, slowest.plus(DIRECT_LATENCY.dividedBy(2)));
			assertThat(result).as("%s: with %d users too, the fan-out waits for its slowest branch alone", join, USERS)
				.hasNoErrors()
				.hasMeanLatencyNear(alone, withPercentage(25))
				.hasThroughputNear(users, withPercentage(15));
			assertThat(seenAlone.peak()).as("%s: one user's two branches in flight at the downstream together", join)
				.isEqualTo(2);
			// With several users the peak depends on how their requests line up, which no
			// model here gives; what the downstream spent on each branch does: the direct
			// branch's 400 ms and the proxied one's 100 ms, not its 700 ms (Toxiproxy
			// holds the answer on its way back, not the downstream).
			assertThat(HEALTHY.holds(seen)).as("%s: %s: %s", join, HEALTHY, seen).isTrue();
			assertThat(PROXY_HELD_AT_THE_DOWNSTREAM.holds(seen))
				.as("%s: the wrong model fails on the same reading (%s): %s", join, PROXY_HELD_AT_THE_DOWNSTREAM, seen)
				.isFalse();
		}
	}

	@Test
	@Order(2)
	void aStructuredJoinCancelsTheSiblingWhenABranchFails(ScenarioReport report) throws IOException {
		FailureMode failFast = FailureMode.of("http-502 connection-reset", BRANCH_FAILS_AFTER,
				"the scope fails with its failing branch (reset twice, 200 ms each) and cancels the " + sibling()
						+ " sibling");
		proxy.toxics().resetPeer("failing-branch", ToxicDirection.UPSTREAM, FAIL_AFTER.toMillis());
		downstream.inFlight().reset();

		LoadResult result = LOAD.named("structured, one branch failing")
			.run(caller.uri(fanOut("structured", SIBLING_LATENCY)));
		InFlight seen = settledDownstream();

		report.record("structured: a branch reset after 200 ms, sibling " + sibling(), result, failFast,
				ScenarioReport.evidence("time to fail p50", result.failureLatencyAt(50).toMillis() + " ms",
						"failures per second", String.format("%.1f", result.errorsPerSecond()), "siblings abandoned",
						seen.abandoned(), "siblings answered", seen.completed() - seen.abandoned()));
		assertThat(result.succeeded()).as("no fan-out succeeds while a branch fails").isZero();
		assertThat(result.errors()).as("every failure is the failing branch's reset, mapped to 502")
			.containsOnlyKeys("http-502 connection-reset");
		assertThat(result.failureLatencyAt(50))
			.as("the scope fails with its first failure, not after the %s sibling", sibling())
			.isLessThan(SIBLING_LATENCY.dividedBy(2));
		assertThat(result.errorsPerSecond())
			.as("each user fails every %d ms: %s per second (L / W)", BRANCH_FAILS_AFTER.toMillis(),
					failFast.failuresPerSecondFor(result).orElseThrow())
			.isCloseTo(failFast.failuresPerSecondFor(result).orElseThrow(), withinPercentage(25));
		assertThat(seen.abandoned()).as("the downstream saw the sibling abandoned, once per failed fan-out")
			.isGreaterThanOrEqualTo(Math.round(result.errorCount() * 0.9));
		assertThat(seen.completed() - seen.abandoned()).as("no sibling ran to its end").isZero();
	}

	@Test
	@Order(3)
	void completableFuturesLetTheSiblingRunToCompletion(ScenarioReport report) throws IOException {
		FailureMode waitsForSibling = FailureMode.of("http-502 connection-reset", SIBLING_LATENCY,
				"allOf(..).join() fails only once the " + sibling() + " sibling has finished");
		proxy.toxics().resetPeer("failing-branch", ToxicDirection.UPSTREAM, FAIL_AFTER.toMillis());
		downstream.inFlight().reset();

		LoadResult result = LOAD.named("futures, one branch failing")
			.run(caller.uri(fanOut("futures", SIBLING_LATENCY)));
		InFlight seen = settledDownstream();

		report.record("CompletableFuture.allOf: a branch reset after 200 ms, sibling " + sibling(), result,
				waitsForSibling,
				ScenarioReport.evidence("time to fail p50", result.failureLatencyAt(50).toMillis() + " ms",
						"failures per second", String.format("%.1f", result.errorsPerSecond()), "siblings abandoned",
						seen.abandoned(), "siblings answered", seen.completed(), "work done for failed requests",
						seen.completed() * SIBLING_LATENCY.toMillis() / 1000 + " s"));
		assertThat(result.succeeded()).as("no fan-out succeeds while a branch fails").isZero();
		assertThat(result.errors()).as("the same failure as the structured join")
			.containsOnlyKeys("http-502 connection-reset");
		assertThat(result.failureLatencyAt(50))
			.as("allOf(..).join() fails only once the %s sibling has finished", sibling())
			.isGreaterThanOrEqualTo(SIBLING_LATENCY)
			.isLessThan(SIBLING_LATENCY.multipliedBy(5).dividedBy(4));
		assertThat(result.errorsPerSecond())
			.as("each user fails every %s: %s per second (L / W)", sibling(),
					waitsForSibling.failuresPerSecondFor(result).orElseThrow())
			.isCloseTo(waitsForSibling.failuresPerSecondFor(result).orElseThrow(), withinPercentage(25));
		assertThat(seen.abandoned()).as("nothing cancels the sibling").isZero();
		assertThat(seen.completed()).as("every failed fan-out's sibling ran to its end")
			.isGreaterThanOrEqualTo(result.errorCount());
	}

	private static String sibling() {
		return SIBLING_LATENCY.toMillis() + " ms";
	}

	private static String fanOut(String join, Duration directLatency) {
		return "/call/fanout?join=" + join + "&latency=" + directLatency.toMillis() + "ms&via=proxied&viaLatency="
				+ PROXIED_LATENCY.toMillis() + "ms";
	}

	/**
	 * A model of what the downstream spent on a branch of the fan-out, on average: the
	 * branches' work, each step of it late by at most {@link #LATE_A_STEP}.
	 */
	record BranchWork(String model, Duration least, Duration most) {

		static BranchWork of(String model, Duration direct, Duration proxied) {
			Duration late = LATE_A_STEP.multipliedBy(direct.toMillis() / 50 + 1);
			return new BranchWork(model, direct.plus(proxied).dividedBy(2),
					direct.plus(proxied).plus(late).dividedBy(2));
		}

		boolean holds(InFlight seen) {
			return seen.completed() > 0 && seen.meanServiceTime().compareTo(this.least) >= 0
					&& seen.meanServiceTime().compareTo(this.most) <= 0;
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%s, a branch's mean time at the downstream %d to %d ms", this.model,
					this.least.toMillis(), this.most.toMillis());
		}

	}

	/** The downstream's reading once every abandoned or finishing sibling has left. */
	private static InFlight settledDownstream() {
		return await().atMost(SIBLING_LATENCY.multipliedBy(3))
			.until(() -> downstream.inFlight().read(), (seen) -> seen.current() == 0);
	}

}
