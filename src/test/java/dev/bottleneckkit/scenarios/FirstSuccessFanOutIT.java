package dev.bottleneckkit.scenarios;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.scenarios.lab.InFlightProbe.InFlight;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
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
 * S13 (seed 002: {@code StructuredTaskScope.ShutdownOnSuccess} over Cache-1 500 ms, Cache-2 200 ms and a
 * database at 800 ms): the caller's {@code /call/first-success} asks three downstream branches at once and
 * answers with the first that succeeds. The branches are the downstream's {@code /work/steps}, which notices
 * when its client goes and counts the request as abandoned.
 * <ul>
 * <li>First success: the answer comes with the fastest branch, and the downstream sees the two slower
 * branches abandoned, two per request.</li>
 * <li>The fastest branch fails ({@code /work/fail}, 503 after its 200 ms): the next success, the 500 ms
 * branch, answers; only the 800 ms branch is abandoned.</li>
 * <li>A join that waits for all: the same answer, after the slowest branch; nothing is abandoned.</li>
 * </ul>
 * The model is the branch latency plus the route's own overhead, measured in the same run: one 200 ms branch
 * alone through the same route. The scope is the lab's {@code FirstSuccessScope}: JDK 21's
 * {@code ShutdownOnSuccess} behaviour on final APIs, as S10's join is.
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

	/** Three branches per user at once, and room for the connections abandoned branches close. */
	static final int POOL = 8 * USERS;

	/** 4 users for 6 s: about 120 answers at 200 ms, 30 at 800 ms. */
	static final ClosedLoopLoad LOAD = ClosedLoopLoad.users(USERS).warmUp(Duration.ofSeconds(1)).forDuration(Duration.ofSeconds(6));

	/**
	 * How far a mean may lie from its model, the branch latency plus the overhead measured alone. Runs here
	 * landed 0 to 7 % above it (three branches cost a little more than one: abandoned connections are
	 * replaced); the next branch is always more than 100 % away, so 15 % still tells them apart.
	 */
	static final double TOLERANCE = 0.15;

	static final Network network = KitResources.newNetwork();

	@Container
	static final LabServiceContainer downstream = LabServiceContainer.downstream(network);

	@Container
	static final LabServiceContainer caller = LabServiceContainer.callerOf(downstream)
		.withVirtualThreads(true)
		.withMaxConnectionsPerRoute(POOL)
		.withMaxConnectionsTotal(POOL);

	/** What the route adds to a branch (two hops, a scope, a new connection): measured by test 1. */
	static Duration overhead;

	@Test
	@Order(1)
	void oneBranchAloneMeasuresTheRoutesOverhead(ScenarioReport report) {
		Ceiling alone = Ceiling.of(USERS, "users, one 200 ms branch each", CACHE_2);

		// The first run after the containers start also warms their JITs: a longer warm-up, so the overhead
		// is the warm route's (a 1 s warm-up measured 37 ms here, then 16 to 21 ms in every later run).
		LoadResult result = run(LOAD.warmUp(Duration.ofSeconds(4)), "one 200 ms branch alone",
				"join=first&latencies=" + CACHE_2.toMillis() + "ms");
		overhead = result.meanLatency().minus(CACHE_2);

		report.record("one 200 ms branch alone: the route's overhead", result, alone,
				ScenarioReport.evidence("mean", result.meanLatency().toMillis() + " ms", "overhead", overhead.toMillis() + " ms"));
		assertThat(result).as("one branch: its 200 ms and a small overhead").hasNoErrors().hasThroughputNear(alone, 0.15);
	}

	@Test
	@Order(2)
	void theFastestBranchAnswersAndTheSlowerOnesAreAbandoned(ScenarioReport report) throws Exception {
		Ceiling fastest = modelled("users, each waiting for the fastest branch (200 ms)", CACHE_2);

		LoadResult result = run(LOAD, "first success of 500, 200, 800 ms", "join=first&" + BRANCHES);
		InFlight seen = settledDownstream();
		int winner = winner("join=first&" + BRANCHES);

		report.record("first success: branches of 500, 200 and 800 ms", result, fastest, evidence(result, seen, winner));
		assertThat(result).as("first success answers with the 200 ms branch, not the 800 ms one").hasNoErrors()
			.hasMeanLatencyNear(fastest.latency(), TOLERANCE)
			.hasThroughputNear(fastest, TOLERANCE);
		org.assertj.core.api.Assertions.assertThat(winner).as("Cache-2 answers").isEqualTo(FASTEST);
		org.assertj.core.api.Assertions.assertThat(seen.peak())
			.as("all three branches of all %d users in flight at the downstream together (and abandoned ones until "
					+ "they notice, within two 50 ms steps)", USERS)
			.isGreaterThanOrEqualTo(3 * USERS);
		org.assertj.core.api.Assertions.assertThat(abandonedPerAnswer(seen))
			.as("two branches abandoned for every one that answered: %s", seen)
			.isCloseTo(2.0, within(0.1));
	}

	@Test
	@Order(3)
	void whenTheFastestBranchFailsTheNextSuccessAnswers(ScenarioReport report) throws Exception {
		String failing = "join=first&" + BRANCHES + "&failing=" + FASTEST;
		Ceiling next = modelled("users, each waiting for the next success (500 ms)", CACHE_1);

		LoadResult result = run(LOAD, "first success, 200 ms branch failing", failing);
		InFlight seen = settledDownstream();
		int winner = winner(failing);

		report.record("first success, the 200 ms branch failing", result, next, evidence(result, seen, winner));
		assertThat(result).as("the 500 ms branch answers once the 200 ms one failed").hasNoErrors()
			.hasMeanLatencyNear(next.latency(), TOLERANCE)
			.hasThroughputNear(next, TOLERANCE);
		org.assertj.core.api.Assertions.assertThat(winner).as("Cache-1 answers").isZero();
		org.assertj.core.api.Assertions.assertThat(abandonedPerAnswer(seen))
			.as("per request the failed branch and the winner end, the 800 ms branch is abandoned: %s", seen)
			.isCloseTo(0.5, within(0.05));
	}

	@Test
	@Order(4)
	void aJoinThatWaitsForAllAnswersAfterTheSlowestBranch(ScenarioReport report) throws Exception {
		Ceiling slowest = modelled("users, each waiting for every branch (800 ms)", DATABASE);

		LoadResult result = run(LOAD, "wait for all of 500, 200, 800 ms", "join=all&" + BRANCHES);
		InFlight seen = settledDownstream();

		report.record("wait for all: branches of 500, 200 and 800 ms", result, slowest,
				evidence(result, seen, winner("join=all&" + BRANCHES)));
		assertThat(result).as("waiting for all takes the slowest branch's 800 ms").hasNoErrors()
			.hasMeanLatencyNear(slowest.latency(), TOLERANCE)
			.hasThroughputNear(slowest, TOLERANCE);
		org.assertj.core.api.Assertions.assertThat(seen.abandoned()).as("nothing is abandoned: %s", seen).isZero();
		org.assertj.core.api.Assertions.assertThat(seen.peak()).as("all branches in flight together").isEqualTo(3 * USERS);
	}

	/** Runs {@code load} once the last run's branches have all left the downstream, counting afresh. */
	private static LoadResult run(ClosedLoopLoad load, String name, String query) {
		settledDownstream();
		downstream.inFlight().reset();
		return load.named(name).run(caller.uri("/call/first-success?" + query));
	}

	/** {@code users} waiting {@code branch} plus the overhead test 1 measured. */
	private static Ceiling modelled(String resource, Duration branch) {
		org.assertj.core.api.Assertions.assertThat(overhead).as("test 1 measured the route's overhead").isNotNull();
		return Ceiling.of(USERS, resource + " + " + Math.max(0, overhead.toMillis()) + " ms measured overhead",
				branch.plus(overhead.isNegative() ? Duration.ZERO : overhead));
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

	/** Which branch answered one request (its index in {@link #BRANCHES}), read from the reply. */
	private static int winner(String query) throws IOException, InterruptedException {
		try (HttpClient http = HttpClient.newHttpClient()) {
			HttpResponse<String> response = http.send(
					HttpRequest.newBuilder(caller.uri("/call/first-success?" + query)).build(),
					HttpResponse.BodyHandlers.ofString());
			JsonNode reply = JsonMapper.shared().readTree(response.body());
			return reply.path("winner").asInt(-1);
		}
	}

	private static Map<String, Object> evidence(LoadResult result, InFlight seen, int winner) {
		return ScenarioReport.evidence("winner", BRANCH_NAMES[winner], "mean", result.meanLatency().toMillis() + " ms", "downstream peak in flight",
				seen.peak(), "branches abandoned", seen.abandoned(), "branches answered", seen.completed() - seen.abandoned());
	}

}
