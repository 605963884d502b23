package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResults;
import dev.bottleneckkit.sweep.WarmUp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A side settles at the ceiling's users when its compilers took at most a tenth of a core
 * over the last two seconds, and says how they fell.
 */
class SettlingTest {

	/**
	 * The steps measured again after the climb where the knee's were warming: the knee (8
	 * users, 9.9 of the ceiling's 9.9 rps; 4 users read 7.9, under 90 %) and a step
	 * either side of it; none without a knee.
	 */
	@Test
	void theKneesStepsAreTheKneeAndOneEitherSide() {
		List<Step> steps = SweepResults.cappedByAPoolOfFive().steps();

		assertThat(SweepRun.kneeSteps(steps, true)).containsExactly(2, 3, 4);
		assertThat(SweepRun.kneeSteps(steps.subList(0, 4), true)).containsExactly(2, 3);
		assertThat(SweepRun.kneeSteps(steps, false)).isEmpty();
	}

	@Test
	void compilersUnderATenthOfACoreOverTwoSecondsAreQuietAtTheCeiling() {
		List<WarmUp.Round> busy = List.of(round(1500, 0.45), round(1500, 0.14));
		List<WarmUp.Round> settled = List.of(round(1500, 0.45), round(1500, 0.14), round(1500, 0.07),
				round(1500, 0.04));

		assertThat(WarmUp.quiet(busy, Settling.QUIET)).isFalse();
		assertThat(WarmUp.quiet(settled, Settling.QUIET)).isTrue();
		assertThat(WarmUp.quiet(settled)).as("a warm-up's twentieth is stricter").isFalse();
	}

	@Test
	void itSaysHowTheCompilersFell() {
		Settling settling = new Settling(16, List.of(round(1500, 0.45), round(1500, 0.06), round(1500, 0.04)), true,
				Duration.ofMillis(4620));
		Settling unread = new Settling(16, List.of(), false, Duration.ZERO);

		assertThat(settling).hasToString("the compilers 0.45 → 0.06 → 0.04 of a core in 4.6 s, quiet");
		assertThat(unread).hasToString("its compilers not read");
	}

	/**
	 * The ledger at one CPU, as a clean clone read it: at 8 users its compilers took 0.30
	 * of a core while the service used all of its one, and each doubling past the knee
	 * gained what they gave back (36.1 → 42.2 → 48.5 rps). Such a step settles and is
	 * measured again; one whose cores had room, or whose compilers were quiet, is not.
	 */
	@Test
	void aStepWhoseCompilersTookATenthOfACoreWhileTheCpuWasFullIsMeasuredAgain() {
		Step.Cpu oneFullCpu = new Step.Cpu(1.0, 1, true, Optional.empty(), 0, Map.of("mysql", 0.1), 0.15, 2, 1.3);
		Step.Cpu roomy = new Step.Cpu(0.34, 2, false, Optional.empty(), 0, Map.of("mysql", 0.1), 0.15, 2, 0.6);
		Step.Cpu machineFull = new Step.Cpu(1.2, 2, false, Optional.empty(), 0, Map.of("mysql", 0.3), 0.3, 2, 1.9);

		assertThat(SweepRun.compilingAtFullCpu(step(oneFullCpu, 0.30))).isTrue();
		assertThat(SweepRun.compilingAtFullCpu(step(machineFull, 0.15))).isTrue();
		assertThat(SweepRun.compilingAtFullCpu(step(oneFullCpu, 0.08))).as("quiet compilers").isFalse();
		assertThat(SweepRun.compilingAtFullCpu(step(roomy, 0.24))).as("cores to spare").isFalse();
	}

	/**
	 * The ledger on one CPU, as a clean clone read it: at 4 users the service used 0.84
	 * of its core with the machine at 1.01 of 2; at 8 users other processes took 0.8 of a
	 * core beside it, the service fell to 0.71 and the doubling read flat (26.1 → 25.0
	 * rps), a knee at 4 users where the cores' is at 8. Such a step is measured again; a
	 * neighbour there all along, a machine with room, or a first step is not.
	 */
	@Test
	void aStepThatABurstOfOtherProcessesCrowdedOutIsMeasuredAgain() {
		Step atFour = step(new Step.Cpu(0.84, 1, true, Optional.empty(), 0, Map.of("mysql", 0.01), 0.05, 2, 1.007),
				0.2);
		Step crowded = step(new Step.Cpu(0.71, 1, true, Optional.empty(), 0, Map.of("mysql", 0.01), 0.05, 2, 1.56),
				0.1);
		Step besideABusyLoop = step(
				new Step.Cpu(0.9, 1, true, Optional.empty(), 0, Map.of("mysql", 0.01), 0.05, 2, 1.96), 0.1);
		Step roomy = step(new Step.Cpu(0.3, 2, false, Optional.empty(), 0, Map.of("mysql", 0.01), 0.05, 2, 0.9), 0.1);

		assertThat(SweepRun.crowdedOut(crowded, List.of(atFour))).isTrue();
		assertThat(SweepRun.crowdedOut(besideABusyLoop, List.of(besideABusyLoop))).as("a neighbour all along")
			.isFalse();
		assertThat(SweepRun.crowdedOut(roomy, List.of(atFour))).as("a machine with room").isFalse();
		assertThat(SweepRun.crowdedOut(crowded, List.of())).as("the first step").isFalse();
	}

	/**
	 * An A/B block's window: a step's 1 s where the ceiling's steps left the CPU aside on
	 * both sides, as a pool that caps a route with cores to spare does (a busy loop
	 * beside it included); 3 s where either side's CPU may cap it or was not read.
	 */
	@Test
	void aBlocksWindowIsLongOnlyWhereTheCpuMayCapTheRoute() {
		Step pool = step(new Step.Cpu(0.25, 2, false, Optional.empty(), 0, Map.of("mysql", 0.05), 0.1, 2, 0.45), 0);
		Step poolBesideABusyLoop = step(
				new Step.Cpu(0.25, 2, false, Optional.empty(), 0, Map.of("mysql", 0.05), 0.1, 2, 1.45), 0);
		Step cpu = step(new Step.Cpu(1.55, 2, false, Optional.empty(), 0, Map.of(), 0.35, 2, 1.95), 0);
		Step halfItsCore = step(new Step.Cpu(0.6, 1, true, Optional.empty(), 0, Map.of("mysql", 0.05), 0.1, 2, 0.8), 0);
		Step unread = new Step(8, pool.result(), pool.service(), pool.downstream(), Optional.empty(), List.of(),
				OptionalInt.empty(), List.of(), List.of(), Duration.ofSeconds(3));

		assertThat(SweepRun.blockWindow(pool, pool)).isEqualTo(Duration.ofSeconds(1));
		assertThat(SweepRun.blockWindow(poolBesideABusyLoop, pool)).as("a busy loop beside a pool's cap")
			.isEqualTo(Duration.ofSeconds(1));
		assertThat(SweepRun.blockWindow(pool, cpu)).as("the head's CPU full").isEqualTo(Duration.ofSeconds(3));
		assertThat(SweepRun.blockWindow(halfItsCore, pool)).as("a service at 0.6 of its one CPU")
			.isEqualTo(Duration.ofSeconds(3));
		assertThat(SweepRun.blockWindow(pool, unread)).as("a side whose CPU was not read")
			.isEqualTo(Duration.ofSeconds(3));
	}

	/**
	 * The blocks run settled, so the cores the climb's ceiling step gave the compilers
	 * are not the route's. A gate's A/A guard of the stock service's Hikari-capped /stock
	 * read at its ceiling (16 users, 23.6 rps) the service at 0.466 of a core, 0.262 of
	 * it compiling, and the machine at 0.999 of its 1.83 cores (the split between MySQL
	 * and the load's JVM was not kept; here 0.05 and 0.40): over the line with its
	 * compilers, it went on two pairs of JVMs whose ±2.6 % left green out of reach, and
	 * the guard unresolved after 8 blocks that agreed to ±0.4 %.
	 */
	@Test
	void theCompilersAtTheCeilingDoNotMakeAPoolsRouteCpuBound() {
		Step hikariAtTheCeiling = step(
				new Step.Cpu(0.466, 2, false, Optional.empty(), 0, Map.of("mysql", 0.05), 0.40, 1.83, 0.999), 0.262);
		Step cpuCompiling = step(new Step.Cpu(1.55, 2, false, Optional.empty(), 0, Map.of(), 0.35, 2, 1.95), 0.3);

		assertThat(SweepRun.cpuShare(hikariAtTheCeiling.cpu().orElseThrow())).as("with its compilers")
			.isGreaterThanOrEqualTo(SweepRun.CPU_ASIDE);
		assertThat(SweepRun.blockWindow(hikariAtTheCeiling, hikariAtTheCeiling)).isEqualTo(Duration.ofSeconds(1));
		assertThat(SweepRun.blockWindow(cpuCompiling, cpuCompiling)).as("a CPU-bound route still compiling")
			.isEqualTo(Duration.ofSeconds(3));
	}

	private static Step step(Step.Cpu cpu, double compilers) {
		return new Step(8, LoadResults.closedLoop("step", 8, Duration.ofSeconds(2), 84, Duration.ofMillis(190)),
				new GaugeTimeline(Map.of()), new GaugeTimeline(Map.of()), Optional.of(cpu), List.of(),
				OptionalInt.empty(), List.of(), List.of(), Duration.ofSeconds(3), Optional.empty(),
				OptionalDouble.empty(), true, OptionalDouble.of(compilers));
	}

	private static WarmUp.Round round(long millis, double compilers) {
		return new WarmUp.Round(Duration.ofMillis(millis), Duration.ofMillis(40), OptionalDouble.of(compilers),
				Optional.empty());
	}

}
