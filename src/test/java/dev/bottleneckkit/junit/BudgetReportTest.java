package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.internal.RunHook;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The budget's line on what shorter windows would have read. */
class BudgetReportTest {

	@Test
	void theReplayLineCountsTheWindowsThatHeldAndNamesTheOthers() {
		Budget.Window steady = window("steady", 10, new RunHook.Replay(4, Duration.ofSeconds(2), 1.10, 0.9),
				new RunHook.Replay(0, Duration.ofSeconds(3), 1.01, 0.99));
		Budget.Window waves = window("waves", 8, new RunHook.Replay(4, Duration.ofSeconds(4), 1.143, 0.9),
				new RunHook.Replay(0, Duration.ofSeconds(3), 1.0, 1.0));
		Budget.Window short_ = window("too short to cut", 3);

		assertThat(BudgetReport.replayLine(List.of(steady, waves, short_), 4, Duration.ofSeconds(3), 0.03)).contains(
				"after 4 mean latencies (3 s at least), 1 of 2 windows that could have ended sooner read within 3 %",
				"11 s would have been saved", "the others: waves +14.3 %.");
		assertThat(BudgetReport.replayLine(List.of(short_), 4, Duration.ofSeconds(3), 0.03)).isEmpty();
	}

	private static Budget.Window window(String name, int seconds, RunHook.Replay... replays) {
		return new Budget.Window(name, Duration.ofSeconds(seconds), 10, new double[0], List.of(replays),
				Duration.ofSeconds(seconds + 2), java.util.OptionalDouble.empty());
	}

	@Test
	void aWindowIsKnownFromTheShortestReplayAfterWhichNoneMoved() {
		Budget.Window settles = window("settles", 10, new RunHook.Replay(0, Duration.ofSeconds(2), 1.05, 1),
				new RunHook.Replay(0, Duration.ofSeconds(3), 1.02, 1),
				new RunHook.Replay(2, Duration.ofMillis(3500), 0.96, 1),
				new RunHook.Replay(0, Duration.ofSeconds(4), 0.99, 1),
				new RunHook.Replay(0, Duration.ofSeconds(5), 1.01, 1));
		Budget.Window drifts = window("drifts", 6, new RunHook.Replay(0, Duration.ofSeconds(2), 1.0, 1),
				new RunHook.Replay(0, Duration.ofSeconds(5), 1.05, 1));

		assertThat(settles.knownAfter()).as("3 s read within 3 %, but 3.5 s did not").hasValue(Duration.ofSeconds(4));
		assertThat(drifts.knownAfter()).as("its last replay moved: the whole window was needed").isEmpty();
		assertThat(window("not replayed", 3).knownAfter()).isEmpty();
		assertThat(BudgetReport.knownLine(List.of(settles, drifts, window("not replayed", 3))))
			.contains("1 of 2 replayed windows read within 3 % of their throughput from half their length or less");
	}

	@Test
	void theCpuLineCountsLoadsAndTheirRunsByHowBusyTheCoresWere() {
		List<Budget.Window> windows = List.of(busy("quiet", 0.05), busy("light", 0.3), busy("heavy", 0.9),
				busy("also quiet", 0.2), new Budget.Window("unread", Duration.ofSeconds(1), 1, new double[0], List.of(),
						Duration.ofSeconds(2), java.util.OptionalDouble.empty()));

		assertThat(BudgetReport.cpuLine(windows)).contains("at most 20 % busy for 2 loads (20 s of runs)",
				"20 to 40 % for 1 (10 s)", "more for 1 (10 s)");
		assertThat(BudgetReport.cpuLine(List.of(windows.get(4)))).isEmpty();
	}

	@Test
	void overheadIsWhatIsNotMeasurementWithWarmUpsAndTailsMeasured() {
		assertThat(BudgetReport.overhead(100, 25 + 10 + 5)).isEqualTo("60 %");
		assertThat(BudgetReport.overhead(30, 40)).isEqualTo("0 %");
		assertThat(BudgetReport.overhead(0, 0)).isEqualTo("—");
		assertThat(BudgetReport
			.overhead(Map.of("wall", 100.0, "windows", 25.0, "warm_ups", 10.0, "tails", 5.0, "waiting", 50.0)))
			.isEqualTo("60 %");
	}

	private static Budget.Window busy(String name, double share) {
		return new Budget.Window(name, Duration.ofSeconds(8), 80, new double[0], List.of(), Duration.ofSeconds(10),
				java.util.OptionalDouble.of(share));
	}

}
