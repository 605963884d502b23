package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.List;

import dev.bottleneckkit.internal.Budget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The budget's line on what shorter windows would have read. */
class BudgetReportTest {

	@Test
	void theReplayLineCountsTheWindowsThatHeldAndNamesTheOthers() {
		Budget.Window steady = window("steady", 10, new Budget.Replay(4, Duration.ofSeconds(2), 1.10, 0.9),
				new Budget.Replay(0, Duration.ofSeconds(3), 1.01, 0.99));
		Budget.Window waves = window("waves", 8, new Budget.Replay(4, Duration.ofSeconds(4), 1.143, 0.9),
				new Budget.Replay(0, Duration.ofSeconds(3), 1.0, 1.0));
		Budget.Window short_ = window("too short to cut", 3);

		assertThat(BudgetReport.replayLine(List.of(steady, waves, short_), 4, Duration.ofSeconds(3), 0.03)).contains(
				"after 4 mean latencies (3 s at least), 1 of 2 windows that could have ended sooner read within 3 %",
				"11 s would have been saved", "the others: waves +14.3 %.");
		assertThat(BudgetReport.replayLine(List.of(short_), 4, Duration.ofSeconds(3), 0.03)).isEmpty();
	}

	private static Budget.Window window(String name, int seconds, Budget.Replay... replays) {
		return new Budget.Window(name, Duration.ofSeconds(seconds), 10, new double[0], List.of(replays));
	}

}
