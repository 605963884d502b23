package dev.bottleneckkit.scenarios;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.scenarios.lab.InFlightProbe.InFlight;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * S13 (seed 002: {@code StructuredTaskScope.ShutdownOnSuccess} over Cache-1 500 ms,
 * Cache-2 200 ms and a database at 800 ms): the caller's {@code /call/first-success} asks
 * three downstream branches at once and answers with the first that succeeds. The
 * branches are the downstream's {@code /work/steps}, which notices when its client goes
 * and counts the request as abandoned.
 * <ul>
 * <li>First success: the answer comes with the fastest branch, and the downstream sees
 * the two slower branches abandoned, two per request.</li>
 * <li>The fastest branch fails ({@code /work/fail}, 503 after its 200 ms): the next
 * success, the 500 ms branch, answers; only the 800 ms branch is abandoned.</li>
 * <li>A join that waits for all: the same answer, after the slowest branch; nothing is
 * abandoned.</li>
 * </ul>
 * What the downstream spent on a branch tells the joins apart as well: a first success
 * holds a branch about 270 ms on average (the winner's 200, the abandoned ones until the
 * downstream notices), a join that waits for all 500; each run is held to its join's
 * bound, and a fourth test holds each bound false on the other join's reading. The branch
 * that answers is read from the latency: one user's (measured right after the load on the
 * warmed caller) and the four users' mean both lie between that branch and the branch
 * plus the route's overhead bound, short of the next branch. Four users queue for no
 * pool, but they share the CPU with their twelve branches, so their mean is held against
 * the bound, not against one user's latency (a hog on one core made it 251 ms for 214 ms
 * alone). Throughput is Little's law on the run's own mean: users / W. The scope is the
 * lab's {@code FirstSuccessScope}: JDK 21's {@code ShutdownOnSuccess} behaviour on final
 * APIs, as S10's join is. The branches keep seed 002's 500, 200 and 800 ms: the scenario
 * reproduces the seed's example, and its loads' turns are among the suite's shortest.
 */
@Scenario(id = "S13", title = "First-success fan-out: the fastest branch answers, the others are abandoned")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FirstSuccessFanOutIT {

	static final Duration CACHE_1 = Duration.ofMillis(500);

	static final Duration CACHE_2 = Duration.ofMillis(200);

	static final Duration DATABASE = Duration.ofMillis(800);

	static final String BRANCHES = "latencies=" + CACHE_1.toMillis() + "ms," + CACHE_2.toMillis() + "ms,"
			+ DATABASE.toMillis() + "ms";

	static final String[] BRANCH_NAMES = { "Cache-1 (500 ms)", "Cache-2 (200 ms)", "Database (800 ms)" };

	/** Cache-2's index in {@link #BRANCHES}: the fastest branch, the one made to fail. */
	static final int FASTEST = 1;

	static final int USERS = 4;

	/**
	 * Three branches per user at once, and room for the connections abandoned branches
	 * close.
	 */
	static final int POOL = 8 * USERS;

	/** 4 users for 6 s: about 120 answers at 200 ms, 30 at 800 ms. */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS)
		.warmUp(Duration.ofSeconds(1))
		.forDuration(Duration.ofSeconds(6));

	/**
	 * What the route may add to a branch with one user (two hops, a scope, new
	 * connections for abandoned ones): runs here measured 10 to 45 ms, and 150 ms while
	 * other scenarios' loads ran beside it. The next branch is 300 ms away, so the bound
	 * still tells them apart.
	 */
	static final Duration OVERHEAD_BOUND = Duration.ofMillis(250);

	/**
	 * How far throughput may lie from users / mean latency, the same run's Little's law:
	 * only counting noise.
	 */
	static final Percentage TOLERANCE = Percentage.withPercentage(15);

	/**
	 * When the downstream's {@code /work/steps} stops a branch its client abandoned: it
	 * works in 50 ms steps and writes after each, and the first write after the close
	 * still succeeds, so it notices within two steps.
	 */
	static final Duration NOTICED_WITHIN = Duration.ofMillis(100);

	/**
	 * What the caller adds before an abandoned branch's connection closes (the scope's
	 * shutdown interrupting the branch's thread, which closes its socket): a hop, stated
	 * as at most 50 ms.
	 */
	static final Duration CANCEL_WITHIN = Duration.ofMillis(50);

	/**
	 * How late {@code /work/steps} may end each 50 ms step (a sleep woken late, a write
	 * and a flush) on these shared cores, beside a busy loop too: 4 ms, so the 800 ms
	 * branch may take 864 (quiet runs read about 1 ms).
	 */
	static final Duration LATE_A_STEP = Duration.ofMillis(4);

	/**
	 * The downstream's work for a first success: the winner's 200 ms, and the two slower
	 * branches stopped once the caller abandons them, at most the cancel and two steps
	 * after the winner's answer. A branch's mean time at the downstream of 200 to (216 +
	 * 2 × (216 + 50 + 100)) / 3 = 316 ms; a join that waits for every branch holds them
	 * 500.
	 */
	static final BranchWork FIRST_SUCCESS = new BranchWork("the first success abandons the slower branches", CACHE_2,
			worked(CACHE_2).plus(worked(CACHE_2).plus(CANCEL_WITHIN).plus(NOTICED_WITHIN).multipliedBy(2))
				.dividedBy(3));

	/**
	 * The downstream's work for a join that waits for all: every branch its own time,
	 * (500 + 200 + 800) / 3 = 500 ms a branch, each step late by at most
	 * {@link #LATE_A_STEP}: 540 ms.
	 */
	static final BranchWork EVERY_BRANCH = new BranchWork("every branch runs to its end",
			CACHE_1.plus(CACHE_2).plus(DATABASE).dividedBy(3),
			worked(CACHE_1).plus(worked(CACHE_2)).plus(worked(DATABASE)).dividedBy(3));

	/**
	 * The downstream's readings of the first-success and the wait-for-all runs, for the
	 * bounds' mutual check.
	 */
	static final Map<BranchWork, InFlight> READ = new ConcurrentHashMap<>();

	static final Network network = KitContainers.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network);

	@Container
	static final LabServiceContainer caller = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withMaxConnectionsPerRoute(POOL)
		.withMaxConnectionsTotal(POOL);

	@Test
	@Order(1)
	void theFastestBranchAnswersAndTheSlowerOnesAreAbandoned(ScenarioReport report) throws Exception {
		String query = "join=first&" + BRANCHES;

		LoadResult result = run(LOAD, "first success of 500, 200, 800 ms", query);
		InFlight seen = settledDownstream();
		int winner = winner(query);
		Duration alone = oneUser(query);
		Ceiling fastest = Ceiling.of(USERS, "users, each waiting for the fastest branch (200 ms)",
				result.meanLatency());

		report.record("first success: branches of 500, 200 and 800 ms", result, fastest,
				evidence(alone, result, seen, winner));
		assertThat(alone).as("one user's answer comes with the 200 ms branch, not the 500 or 800 ms one")
			.isBetween(CACHE_2, CACHE_2.plus(OVERHEAD_BOUND));
		assertThat(result.meanLatency()).as("four users, each answered by the fastest branch: 200 ms, not 500")
			.isBetween(CACHE_2, CACHE_2.plus(OVERHEAD_BOUND));
		assertThat(result).as("four users, each answered by the fastest branch")
			.hasNoErrors()
			.hasThroughputNear(fastest, TOLERANCE);
		assertThat(winner).as("Cache-2 answers").isEqualTo(FASTEST);
		assertThat(seen.peak())
			.as("all three branches of all %d users in flight at the downstream together (and abandoned ones until "
					+ "they notice, within two 50 ms steps)", USERS)
			.isGreaterThanOrEqualTo(3 * USERS);
		assertThat(abandonedPerAnswer(seen)).as("two branches abandoned for every one that answered: %s", seen)
			.isCloseTo(2.0, within(0.1));
		assertThat(FIRST_SUCCESS.holds(seen)).as("%s: %s", FIRST_SUCCESS, seen).isTrue();
		READ.put(FIRST_SUCCESS, seen);
	}

	@Test
	@Order(2)
	void whenTheFastestBranchFailsTheNextSuccessAnswers(ScenarioReport report) throws Exception {
		String failing = "join=first&" + BRANCHES + "&failing=" + FASTEST;

		LoadResult result = run(LOAD, "first success, 200 ms branch failing", failing);
		InFlight seen = settledDownstream();
		int winner = winner(failing);
		Duration alone = oneUser(failing);
		Ceiling next = Ceiling.of(USERS, "users, each waiting for the next success (500 ms)", result.meanLatency());

		report.record("first success, the 200 ms branch failing", result, next, evidence(alone, result, seen, winner));
		assertThat(alone).as("once the 200 ms branch failed, the 500 ms one answers, not the 800 ms one")
			.isBetween(CACHE_1, CACHE_1.plus(OVERHEAD_BOUND));
		assertThat(result.meanLatency()).as("four users, each answered by the next success: 500 ms, not 800")
			.isBetween(CACHE_1, CACHE_1.plus(OVERHEAD_BOUND));
		assertThat(result).as("four users, each answered by the next success")
			.hasNoErrors()
			.hasThroughputNear(next, TOLERANCE);
		assertThat(winner).as("Cache-1 answers").isZero();
		assertThat(abandonedPerAnswer(seen))
			.as("per request the failed branch and the winner end, the 800 ms branch is abandoned: %s", seen)
			.isCloseTo(0.5, within(0.05));
	}

	@Test
	@Order(3)
	void aJoinThatWaitsForAllAnswersAfterTheSlowestBranch(ScenarioReport report) throws Exception {
		String query = "join=all&" + BRANCHES;

		LoadResult result = run(LOAD, "wait for all of 500, 200, 800 ms", query);
		InFlight seen = settledDownstream();
		downstream.inFlight().reset();
		Duration alone = oneUser(query);
		InFlight seenAlone = downstream.inFlight().read();
		Ceiling slowest = Ceiling.of(USERS, "users, each waiting for every branch (800 ms)", result.meanLatency());

		report.record("wait for all: branches of 500, 200 and 800 ms", result, slowest,
				evidence(alone, result, seen, winner(query)));
		assertThat(alone).as("waiting for all takes the slowest branch's 800 ms")
			.isBetween(DATABASE, DATABASE.plus(OVERHEAD_BOUND));
		assertThat(result.meanLatency()).as("four users, each waiting for the slowest branch's 800 ms")
			.isBetween(DATABASE, DATABASE.plus(OVERHEAD_BOUND));
		assertThat(result).as("four users, each waiting for every branch")
			.hasNoErrors()
			.hasThroughputNear(slowest, TOLERANCE);
		assertThat(seen.abandoned()).as("nothing is abandoned: %s", seen).isZero();
		// One user's requests follow one another: the downstream holds the three branches
		// of one request at once, the fan-out's width. With several users the peak
		// depends on how their requests line up, which no model here gives; what each
		// branch held the downstream for does not.
		assertThat(seenAlone.peak()).as("one user's three branches in flight at the downstream together").isEqualTo(3);
		assertThat(EVERY_BRANCH.holds(seen)).as("%s: %s", EVERY_BRANCH, seen).isTrue();
		READ.put(EVERY_BRANCH, seen);
	}

	/**
	 * The two bounds on what the downstream did tell the joins apart: each fails on the
	 * other join's reading, so neither passes whatever the fan-out does. A fan-out that
	 * waits for every branch fails the first-success bound, and one that abandons fails
	 * the wait-for-all bound.
	 */
	@Test
	@Order(4)
	void theDownstreamsWorkTellsTheJoinsApart() {
		assertThat(READ).as("the first-success and the wait-for-all runs left their readings")
			.containsKeys(FIRST_SUCCESS, EVERY_BRANCH);

		assertThat(FIRST_SUCCESS.holds(READ.get(EVERY_BRANCH)))
			.as("a join that waits for every branch read as a first success (%s): %s", FIRST_SUCCESS,
					READ.get(EVERY_BRANCH))
			.isFalse();
		assertThat(EVERY_BRANCH.holds(READ.get(FIRST_SUCCESS)))
			.as("a first success read as a join that waits for every branch (%s): %s", EVERY_BRANCH,
					READ.get(FIRST_SUCCESS))
			.isFalse();
	}

	/**
	 * The most a branch of {@code work} takes at the downstream: its steps, each late by
	 * at most 2 ms.
	 */
	private static Duration worked(Duration work) {
		return work.plus(LATE_A_STEP.multipliedBy(work.toMillis() / 50));
	}

	/**
	 * One user's latency on the route (median): the branch that answers plus the route's
	 * own overhead. Measured after the load, on a caller whose JIT the load has warmed.
	 */
	private static Duration oneUser(String query) {
		settledDownstream();
		return ClosedLoopLoad.oneUser().run(caller.uri("/call/first-success?" + query)).median();
	}

	/**
	 * Runs {@code load} once the last run's branches have all left the downstream,
	 * counting afresh.
	 */
	private static LoadResult run(ClosedLoopLoad load, String name, String query) {
		settledDownstream();
		downstream.inFlight().reset();
		return load.named(name).run(caller.uri("/call/first-success?" + query));
	}

	/** Abandoned branches for each branch that ran to its end. */
	private static double abandonedPerAnswer(InFlight seen) {
		return seen.abandoned() / (double) Math.max(1, seen.completed() - seen.abandoned());
	}

	/** The downstream's reading once every abandoned or finishing branch has left. */
	private static InFlight settledDownstream() {
		return await().atMost(DATABASE.multipliedBy(5))
			.until(() -> downstream.inFlight().read(), (seen) -> seen.current() == 0);
	}

	/**
	 * Which branch answered one request (its index in {@link #BRANCHES}), read from the
	 * reply.
	 */
	private static int winner(String query) throws IOException, InterruptedException {
		try (HttpClient http = HttpClient.newHttpClient()) {
			HttpResponse<String> response = http.send(
					HttpRequest.newBuilder(caller.uri("/call/first-success?" + query)).build(),
					HttpResponse.BodyHandlers.ofString());
			JsonNode reply = JsonMapper.shared().readTree(response.body());
			return reply.path("winner").asInt(-1);
		}
	}

	private static Map<String, Object> evidence(Duration alone, LoadResult result, InFlight seen, int winner) {
		return ScenarioReport.evidence("winner", BRANCH_NAMES[winner], "one user (median)", alone.toMillis() + " ms",
				"mean", result.meanLatency().toMillis() + " ms", "downstream peak in flight", seen.peak(),
				"branches abandoned", seen.abandoned(), "branches answered", seen.completed() - seen.abandoned(),
				"a branch's mean time at the downstream", seen.meanServiceTime().toMillis() + " ms");
	}

	/**
	 * A model of what the downstream spent on a branch, on average: between {@code least}
	 * and {@code most}.
	 */
	record BranchWork(String model, Duration least, Duration most) {

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

}
