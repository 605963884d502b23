package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Step;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A climb that stopped at a plateau its warm figures no longer show goes on from its last
 * count: the gateway's four event loops read 16.5 and 18.0 rps at 4 and 8 users while the
 * compilers worked, and 15.4 and 18.2 warm, 18 % more for twice the users.
 */
class ClimbTest {

	/** The gateway's steps while the compilers worked: flat from 4 to 8 users. */
	private static final Map<Integer, Step> COLD = Map.of(1, step(1, 4.7, 212), 2, step(2, 9.6, 208), 4,
			step(4, 16.5, 240), 8, step(8, 18.0, 440), 16, step(16, 19.5, 820));

	@Test
	void aClimbStopsAtAFlatDoublingWithThePlateauSeen() {
		List<Integer> stepped = new ArrayList<>();
		Climb climb = climb(stepped);

		climb.climb(RunHook.Load.NONE, (users, steps) -> {
		});

		assertThat(stepped).as("18.0 rps is 1.09 × 16.5, latency × 1.8").containsExactly(1, 2, 4, 8);
		assertThat(climb.sides().get(0).saturated()).isTrue();
	}

	@Test
	void warmFiguresWithoutThePlateauClimbOnFromTheLastCount() {
		List<Integer> stepped = new ArrayList<>();
		Climb climb = climb(stepped);
		climb.climb(RunHook.Load.NONE, (users, steps) -> {
		});
		Climb.Side side = climb.sides().get(0);
		List<Step> warm = new ArrayList<>(side.steps());
		warm.set(2, step(4, 15.4, 259));
		warm.set(3, step(8, 18.2, 439));

		assertThat(side.takeAgain(warm)).as("18.2 rps is 1.18 × 15.4: not flat").isFalse();
		assertThat(side.saturated()).isFalse();
		climb.climb(RunHook.Load.NONE, (users, steps) -> {
		});

		assertThat(stepped).containsExactly(1, 2, 4, 8, 16);
		assertThat(side.steps()).extracting(Step::throughput).containsExactly(4.7, 9.6, 15.4, 18.2, 19.5);
		assertThat(side.saturated()).as("19.5 rps is 1.07 × 18.2, latency × 1.9").isTrue();
	}

	@Test
	void warmFiguresThatStillShowThePlateauEndIt() {
		Climb climb = climb(new ArrayList<>());
		climb.climb(RunHook.Load.NONE, (users, steps) -> {
		});
		Climb.Side side = climb.sides().get(0);
		List<Step> warm = new ArrayList<>(side.steps());
		warm.set(3, step(8, 17.6, 450));

		assertThat(side.takeAgain(warm)).isTrue();
		assertThat(side.saturated()).isTrue();
	}

	private static Climb climb(List<Integer> stepped) {
		Climb.Stepper stepper = (users, before, probes) -> {
			stepped.add(users);
			return COLD.get(users);
		};
		return new Climb("gateway /availability", List.of(new Climb.Side(stepper, null)), 32);
	}

	private static Step step(int users, double rps, long latencyMs) {
		Duration window = Duration.ofSeconds(10);
		return new Step(users,
				LoadResults.closedLoop("load", users, window, Math.round(rps * 10), Duration.ofMillis(latencyMs)),
				new GaugeTimeline(Map.of()), new GaugeTimeline(Map.of()), Optional.empty(), List.of(),
				OptionalInt.empty(), List.of(), List.of(), window);
	}

}
