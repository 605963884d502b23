package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LimitedServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Where the suite's budget puts a load's seconds, as the load tells its hook: its
 * warm-up, its window, and its tail, the time it ran past them waiting for the answers in
 * flight at the window's end; and each window replayed as if it had ended earlier.
 */
class LoadBudgetTest {

	@BeforeAll
	static void theSuitesHook() {
		SuiteHook.install("LoadBudgetTest");
	}

	/**
	 * 2 users on 800 ms answers, a 300 ms warm-up and a 1 s window: the window ends while
	 * both users' requests are in flight, and the load waits up to 800 ms for them.
	 */
	@Test
	void theAnswersInFlightAtTheWindowsEndAreTheLoadsTail() throws Exception {
		String owner = "LoadBudgetTest-" + System.nanoTime();
		Budget.owner(owner);
		try (LimitedServer server = LimitedServer.start(2, Duration.ofMillis(800))) {
			long began = System.nanoTime();
			ClosedLoopLoad.users(2)
				.warmUp(Duration.ofMillis(300))
				.forDuration(Duration.ofSeconds(1))
				.quiet()
				.run(server.uri());
			double ran = (System.nanoTime() - began) / 1e9;

			Map<String, Double> seconds = Budget.byClass().get(owner);
			assertThat(seconds.get("warm_ups")).isCloseTo(0.3, within(0.01));
			assertThat(seconds.get("windows")).isCloseTo(1.0, within(0.01));
			assertThat(seconds.get("tails")).as("the wait for the answers in flight").isGreaterThan(0.05);
			assertThat(seconds.get("warm_ups") + seconds.get("windows") + seconds.get("tails"))
				.as("the load's whole run, %.2f s, less the wait for its turn", ran)
				.isLessThanOrEqualTo(ran);
		}
		finally {
			Budget.owner(null);
		}
	}

	/**
	 * 4 users on a server that holds every request 200 ms, 2 at a time: 10 answers a
	 * second and a mean latency of 400 ms. The budget replays the 8 s window as if it had
	 * ended after 2 to 8 mean latencies and after 2 to 6 s, by the lives the kit counts;
	 * a queue this steady reads the same from each.
	 */
	@Test
	void eachWindowIsReplayedAsIfItHadEndedEarlier() throws Exception {
		String owner = "LoadBudgetTest-" + System.nanoTime();
		Budget.owner(owner);
		try (LimitedServer server = LimitedServer.start(2, Duration.ofMillis(200))) {
			ClosedLoopLoad.users(4)
				.warmUp(Duration.ofMillis(500))
				.forDuration(Duration.ofSeconds(8))
				.quiet()
				.run(server.uri());

			Budget.Window window = Budget.windows().get(owner).get(0);
			assertThat(window.replays()).extracting(RunHook.Replay::latencies)
				.containsExactly(2, 3, 4, 6, 8, 0, 0, 0, 0, 0);
			RunHook.Replay fourLatencies = window.replays().get(2);
			assertThat(fourLatencies.length().toMillis()).as("4 mean latencies of 400 ms").isBetween(1400L, 2200L);
			assertThat(window.replays()).allSatisfy((replay) -> {
				assertThat(replay.throughput()).as("%s", replay).isCloseTo(1.0, within(0.1));
				assertThat(replay.meanLatency()).as("%s", replay).isCloseTo(1.0, within(0.1));
			});
			assertThat(window.replays().get(5).length()).isEqualTo(Duration.ofSeconds(2));
		}
		finally {
			Budget.owner(null);
		}
	}

}
