package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison.Change;
import dev.bottleneckkit.sweep.internal.analysis.Block;
import dev.bottleneckkit.sweep.internal.run.PairRun;
import org.junit.jupiter.api.Test;
import org.testcontainers.utility.DockerImageName;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * The A/B comparison's statistics on blocks made by hand: a ratio and its 95 % interval
 * per figure, and a verdict only where the interval lies wholly beyond the bound.
 */
class ABComparisonTest {

	@Test
	void theSameServiceTwiceIsNoChangeBeyondTheBound() {
		List<Block> blocks = blocks(10.0, 10.0, 0.01, 6, 1);

		ABComparison same = comparison(blocks, "Tomcat request threads", "Tomcat request threads");

		assertThat(same.figure("ceiling")).hasValueSatisfying((ceiling) -> {
			assertThat(ceiling.ratio()).isCloseTo(1.0, within(0.02));
			assertThat(ceiling.change(0.05)).isEqualTo(Change.NO_CHANGE);
			assertThat(ceiling.halfWidth()).isLessThan(0.025);
		});
		assertThat(same.regressed(0.05)).isFalse();
		assertThat(SweepResults.compared(SweepResults.cappedByAPoolOfFive(), same))
			.hasNotRegressedAgainstItsBase(withPercentage(5));
	}

	@Test
	void aPoolCutByAFifthIsARegressionWithItsInterval() {
		List<Block> blocks = blocks(10.0, 8.0, 0.01, 6, 2);

		ABComparison cut = comparison(blocks, "Hikari connection pool", "Hikari connection pool");

		assertThat(cut.figure("ceiling")).hasValueSatisfying((ceiling) -> {
			assertThat(ceiling.ratio()).isCloseTo(0.8, within(0.02));
			assertThat(ceiling.high()).isLessThan(0.95);
			assertThat(ceiling.change(0.05)).isEqualTo(Change.REGRESSED);
			assertThat(ceiling.line(0.05)).startsWith("ceiling: ")
				.endsWith(": regressed")
				.contains("B/A 0.8")
				.containsPattern("a block ±\\d\\.\\d %");
		});
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(SweepResults.compared(SweepResults.cappedByAPoolOfFive(), cut))
				.hasNotRegressedAgainstItsBase(withPercentage(5)))
			.withMessageContaining("regressed against registry.example.com/orders:main beyond 5 %")
			.withMessageContaining("ceiling: 10.0 → 8.0 rps");
	}

	/**
	 * Blocks too noisy to tell a 4 % change from none: unresolved, neither a false red
	 * nor green, and the guard fails saying so and what resolves it.
	 */
	@Test
	void aDifferenceTheBlocksCannotResolveIsUnresolvedNeverGreen() {
		List<Block> blocks = blocks(10.0, 9.6, 0.08, 6, 3);

		ABComparison noisy = comparison(blocks, "CPU", "CPU");

		assertThat(noisy.figure("ceiling")).hasValueSatisfying((ceiling) -> {
			assertThat(ceiling.change(0.05)).isEqualTo(Change.UNRESOLVED);
			assertThat(ceiling.line(0.05)).containsPattern("unresolved at ±\\d+\\.\\d %");
		});
		assertThat(noisy.regressed(0.05)).isFalse();
		assertThat(noisy.resolved(0.05)).isFalse();
		assertThat(noisy.outcome(0.05)).startsWith("unresolved at ±");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(SweepResults.compared(SweepResults.cappedByAPoolOfFive(), noisy))
				.hasNotRegressedAgainstItsBase(withPercentage(5)))
			.withMessageContaining("is unresolved at ±")
			.withMessageContaining("a longer budget (Sweep.within) or a wider bound (Sweep.tolerating) resolves it");
	}

	@Test
	void aGuardsBoundAndBudgetOutsideTheirRangeAreRefusedInOneLine() {
		Sweep sweep = Sweep.of(URI.create("http://127.0.0.1:1/orders"));

		assertThatIllegalArgumentException().isThrownBy(() -> sweep.tolerating(withPercentage(0)))
			.withMessageStartingWith("tolerating needs a bound between 0 and 100 %, e.g. withPercentage(2); was ");
		assertThatIllegalArgumentException().isThrownBy(() -> sweep.within(Duration.ZERO))
			.withMessage("within needs a guard's budget above zero, e.g. Duration.ofMinutes(5); was PT0S");
	}

	/**
	 * A 4 % cut measured tightly: red where the guard told 2 % apart, green where it told
	 * 5 %; the assertion without a bound reads the guard's own.
	 */
	@Test
	void theAssertionReadsTheBoundTheGuardToldApart() {
		List<Block> blocks = blocks(10.0, 9.6, 0.002, 6, 7);
		ABComparison atFive = comparison(blocks, "Hikari connection pool", "Hikari connection pool");
		ABComparison atTwo = new ABComparison(atFive.baseImage(), atFive.headImage(), false, 8, 16, atFive.figures(),
				atFive.baseCap(), atFive.headCap(), false, atFive.blocks(), 42L, List.of(), atFive.took(), 0.02);

		assertThat(SweepResults.compared(SweepResults.cappedByAPoolOfFive(), atFive)).hasNotRegressedAgainstItsBase();
		assertThat(atTwo.outcome()).isEqualTo("regressed");
		assertThat(atFive.outcome()).isEqualTo("no change beyond 5 %");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(SweepResults.compared(SweepResults.cappedByAPoolOfFive(), atTwo))
				.hasNotRegressedAgainstItsBase())
			.withMessageContaining("beyond 2 %");
	}

	/**
	 * A sweep with no base fails the A/B assertion naming how to give it one, unless the
	 * run says it has none (a push to main): then the assertion is skipped, the rest
	 * holds.
	 */
	@Test
	void aSweepWithoutABaseFailsUnlessTheRunSaysItHasNone() {
		SweepResult alone = SweepResults.cappedByAPoolOfFive();
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(alone).hasNotRegressedAgainstItsBase())
			.withMessageContaining("was not measured against a base image")
			.withMessageContaining("-Dbottleneck.against=none runs it alone");
		System.setProperty("bottleneck.against", "none");
		try {
			assertThat(alone).hasNotRegressedAgainstItsBase().hasNotRegressedAgainstItsBase(withPercentage(5));
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> assertThat(alone).isCappedBy(Resource.TOMCAT_THREADS));
		}
		finally {
			System.clearProperty("bottleneck.against");
		}
	}

	/**
	 * Eight blocks of a 7 % cut, one of which met a pause on A's side (B read 30 % above
	 * A there): still a regression, its ratio unmoved by the block.
	 */
	@Test
	void onePausedBlockDoesNotHideARegression() {
		List<Block> blocks = new ArrayList<>(blocks(10.0, 9.3, 0.004, 8, 6));
		Block paused = blocks.get(3);
		blocks.set(3, new Block(paused.baseKneeRps(), paused.headKneeRps(), paused.baseKneeP99Ms(),
				paused.headKneeP99Ms(), paused.headCeilingRps() / 1.3, paused.headCeilingRps()));

		ABComparison cut = comparison(blocks, "Tomcat request threads", "Tomcat request threads");

		assertThat(cut.figure("ceiling")).hasValueSatisfying((ceiling) -> {
			assertThat(ceiling.ratio()).isCloseTo(0.93, within(0.01));
			assertThat(ceiling.change(0.05)).isEqualTo(Change.REGRESSED);
		});
	}

	@Test
	void aCapThatMovedIsARegressionOfItsOwn() {
		ABComparison moved = comparison(blocks(10.0, 10.0, 0.01, 6, 4), "Hikari connection pool",
				"Tomcat request threads");

		assertThat(moved.capMoved()).isTrue();
		assertThat(moved.regressed(0.05)).isTrue();
		assertThat(moved.lines(0.05).get(0))
			.isEqualTo("the cap moved from Hikari connection pool to Tomcat request threads: regressed");
	}

	/**
	 * An A/A run of a CPU-bound route read "unexplained" on one side (its JVM still
	 * warming) and "CPU" on the other: no resource named on both, nothing moved, and the
	 * figures decide.
	 */
	@Test
	void aSideThatNamesNoResourceMovesNoCap() {
		Verdict unexplained = new Verdict.Unexplained(200, 4, List.of(), List.of(), Map.of());
		Verdict cpu = SweepResults.cappedByAPoolOfFive().verdict();

		assertThat(PairRun.capMoved(unexplained, cpu)).isFalse();
		assertThat(PairRun.capMoved(cpu, cpu)).isFalse();
		ABComparison same = comparison(blocks(10.0, 10.0, 0.01, 6, 7), "unexplained", "CPU");
		assertThat(same.regressed(0.05)).isFalse();
		assertThat(same.lines(0.05).get(0))
			.isEqualTo("A read unexplained, B CPU: no resource named on both sides, the figures decide");
	}

	@Test
	void aHigherP99IsWorseAndALowerOneBetter() {
		ABComparison.Figure slower = new ABComparison.Figure("p99 at the knee", "ms", 100, 130, 1.3, 1.2, 1.4, 0.05,
				false);
		ABComparison.Figure faster = new ABComparison.Figure("p99 at the knee", "ms", 100, 70, 0.7, 0.6, 0.8, 0.05,
				false);

		assertThat(slower.change(0.05)).isEqualTo(Change.REGRESSED);
		assertThat(faster.change(0.05)).isEqualTo(Change.IMPROVED);
	}

	/**
	 * A base that answers 404 where the head answers 200 is another service: one line
	 * says so.
	 */
	@Test
	void aBaseThatDoesNotServeTheRouteIsRefusedInOneLine() {
		Step answered = step(LoadResults.closedLoop("load", 1, Duration.ofSeconds(2), 8, Duration.ofMillis(250)));
		Step refused = step(LoadResults.closedLoop("load", 1, Duration.ofSeconds(2), 0, Duration.ofMillis(5),
				Map.of("http-404", 400L), Duration.ofMillis(5)));

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(
					() -> PairRun.sameAnswers(DockerImageName.parse("orders:main"), "/orders/42", refused, answered))
			.withMessage("A/B: the base (orders:main) answers {http-404=400} where the head answers 8 successes on"
					+ " /orders/42: they do not serve the same route; compare two images of one service");
		PairRun.sameAnswers(DockerImageName.parse("orders:main"), "/orders/42", answered, answered);
	}

	/**
	 * A guard of three routes at one start prints one line a route: its ceiling's ratio
	 * with its interval, the spread of one block beside it, and its own verdict.
	 */
	@Test
	void aGuardOfSeveralRoutesIsATableWithEachRoutesRatioNoiseAndVerdict() {
		SweepResult stock = route("guard /stock",
				comparison(blocks(24.0, 16.0, 0.002, 6, 4), "Hikari connection pool", "Hikari connection pool"));
		SweepResult label = route("guard /label",
				comparison(blocks(15.0, 15.0, 0.004, 6, 5), "renderers", "renderers"));
		SweepResult price = route("guard /price",
				comparison(blocks(10.0, 10.0, 0.003, 6, 6), "HttpClient pool", "Tomcat request threads"));

		List<String> table = Sweep.routesTable(List.of(stock, label, price));

		assertThat(table).hasSize(5);
		assertThat(table.get(0)).isEqualTo("3 routes, each B against A at one start of both:");
		assertThat(table.get(1)).startsWith("route")
			.contains("ceiling B/A (95 %)")
			.contains("a block")
			.contains("blocks")
			.contains("took");
		assertThat(table.get(2)).contains("     6  150 s");
		assertThat(table.get(2)).startsWith("guard /stock")
			.contains("0.66")
			.containsPattern("±0\\.\\d %")
			.endsWith("regressed");
		assertThat(table.get(3)).startsWith("guard /label").contains("1.0").endsWith("no change beyond 5 %");
		assertThat(table.get(4)).startsWith("guard /price")
			.endsWith("regressed: the cap moved to Tomcat request threads");
	}

	@Test
	void aSweepOfSeveralRoutesNamesEachOnceAndRunsEachOnItsOwn() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> Sweep.of(unstarted(), "/stock", "label"))
			.withMessage("path must start with '/', was 'label'");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> Sweep.of(unstarted(), "/stock", "/label", "/stock"))
			.withMessage("each route once: [/stock, /label, /stock] names one twice");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> Sweep.of(unstarted(), "/stock", "/label").run())
			.withMessage("a sweep of 2 routes [/stock, /label] hands back a result a route: call runEach()");
	}

	/** A service container that answers its URIs without a start. */
	private static ServiceContainer unstarted() {
		return new ServiceContainer("example/stock:1") {
			@Override
			public URI uri(String path) {
				return URI.create("http://localhost:8080" + path);
			}
		};
	}

	private static SweepResult route(String name, ABComparison comparison) {
		SweepResult sweep = SweepResults.cappedByAPoolOfFive();
		return new SweepResult(name, sweep.target(), sweep.readings(), sweep.analysis(), sweep.confirmation(),
				sweep.search(), Optional.of(comparison));
	}

	/**
	 * Blocks on one pair of JVMs share that pair's offset, which no number of blocks
	 * averages away: the interval holds the spread between pairs too, shrunk by the pairs
	 * the blocks came from. Blocks that agree exactly leave only that term: 1.96 × 1.3 %
	 * on one pair, × √(4/9 + 1/9) where a second pair measured 2 of 6 blocks.
	 */
	@Test
	void theIntervalHoldsTheSpreadBetweenPairsOfJvmsShrunkByThePairs() {
		List<Block> onePair = new ArrayList<>();
		List<Block> twoPairs = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			onePair.add(new Block(100, 95, 10, 10, 300, 285, 0));
			twoPairs.add(new Block(100, 95, 10, 10, 300, 285, (i / 2 == 1) ? 1 : 0));
		}

		ABComparison.Figure one = Block.figures(onePair, 0.013).get(0);
		ABComparison.Figure two = Block.figures(twoPairs, 0.013).get(0);

		assertThat(one.ratio()).isCloseTo(0.95, within(1e-9));
		assertThat(one.high()).isCloseTo(0.95 * Math.exp(1.96 * 0.013), within(1e-9));
		assertThat(two.high()).isCloseTo(0.95 * Math.exp(1.96 * 0.013 * Math.sqrt(5.0 / 9)), within(1e-9));
		assertThat(Block.figures(twoPairs, 0)).isEqualTo(Block.figures(twoPairs));
		assertThat(Block.figures(twoPairs).get(0).halfWidth()).isCloseTo(0, within(1e-12));
	}

	/**
	 * Simulated A/A guards on a CPU-bound route as the lab's calibration read it: each
	 * pair of JVMs offset by ±1.3 % (a standard deviation) for the whole guard, each
	 * block ±0.5 % about its pair's offset, 8 blocks two at a time on each of two pairs.
	 * The blocks' interval alone claims what one pair resolves and misses 1 in most
	 * guards; with the pairs' spread it holds 1 in about 95 % of them.
	 */
	@Test
	void withTheSpreadBetweenPairsAnAaIntervalHoldsOneNineteenTimesInTwenty() {
		Random random = new Random(55);
		int guards = 2000;
		int heldByTheBlocks = 0;
		int held = 0;
		for (int guard = 0; guard < guards; guard++) {
			double[] offsets = { 0.013 * random.nextGaussian(), 0.013 * random.nextGaussian() };
			List<Block> blocks = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				int pair = (i / 2) % 2;
				double head = 300 * Math.exp(offsets[pair] + 0.005 * random.nextGaussian());
				blocks.add(new Block(280, 280, 10, 10, 300, head, pair));
			}
			ABComparison.Figure blocksAlone = Block.figures(blocks).get(0);
			ABComparison.Figure withPairs = Block.figures(blocks, 0.013).get(0);
			heldByTheBlocks += (blocksAlone.low() <= 1 && 1 <= blocksAlone.high()) ? 1 : 0;
			held += (withPairs.low() <= 1 && 1 <= withPairs.high()) ? 1 : 0;
		}

		assertThat((double) held / guards).isBetween(0.93, 0.99);
		assertThat((double) heldByTheBlocks / guards).isLessThan(0.85);
	}

	private static Step step(LoadResult result) {
		return new Step(1, result, new GaugeTimeline(Map.of()), new GaugeTimeline(Map.of()), Optional.empty(),
				List.of(), OptionalInt.empty(), List.of(), List.of(), Duration.ofSeconds(3));
	}

	/**
	 * {@code n} blocks of A at {@code base} rps and B at {@code head}, each spread by
	 * {@code noise}.
	 */
	/**
	 * The sequential guard decides at a look only what its widened interval shows: red
	 * when it lies wholly below the bound, green when wholly within it, and one more
	 * block when it reaches across it, after an odd count, or before 4 blocks.
	 */
	@Test
	void aSequentialGuardStopsOnlyWhenItsIntervalAtTheLookIsClear() {
		assertThat(Block.decide(blocks(10.0, 5.0, 0.01, 4, 5), 0, 0.05)).as("a 2× cut, 4 blocks ±1 %")
			.isEqualTo(Block.Decision.REGRESSED);
		assertThat(Block.decide(blocks(10.0, 10.0, 0.002, 4, 5), 0, 0.05)).as("A/A, 4 blocks ±0.2 %")
			.isEqualTo(Block.Decision.WITHIN);
		assertThat(Block.decide(blocks(10.0, 12.0, 0.002, 4, 5), 0, 0.05)).as("20 % more, 4 blocks ±0.2 %")
			.isEqualTo(Block.Decision.IMPROVED);
		assertThat(Block.decide(blocks(10.0, 9.5, 0.01, 4, 5), 0, 0.05)).as("a 5 % cut at a bound of 5 %")
			.isEqualTo(Block.Decision.MORE);
		assertThat(Block.decide(blocks(10.0, 10.0, 0.05, 8, 5), 0, 0.05)).as("A/A, 8 blocks ±5 %")
			.isEqualTo(Block.Decision.MORE);
		assertThat(Block.decide(blocks(10.0, 5.0, 0.01, 5, 5), 0, 0.05)).as("an odd count")
			.isEqualTo(Block.Decision.MORE);
		assertThat(Block.decide(blocks(10.0, 5.0, 0.01, 2, 5), 0, 0.05)).as("two blocks")
			.isEqualTo(Block.Decision.MORE);
		assertThat(Block.decide(blocks(10.0, 10.0, 0.002, 4, 5), 0.03, 0.05))
			.as("A/A, 4 blocks ±0.2 %, pairs of JVMs ±3 % apart")
			.isEqualTo(Block.Decision.MORE);
	}

	/**
	 * At a look the interval is wider than the same blocks' interval read once: a guard
	 * that may stop at any look pays for looking. (At 4 blocks the guard of a fixed count
	 * has a point of its own for its early stop.)
	 */
	@Test
	void anIntervalAtALookIsWiderThanOneReadOnce() {
		for (int n : new int[] { 6, 8, 12, 16 }) {
			List<Block> blocks = blocks(10.0, 10.0, 0.01, n, 11);
			assertThat(Block.atALook(blocks, 0).get(0).halfWidth()).as("%d blocks", n)
				.isGreaterThan(Block.figures(blocks).get(0).halfWidth());
		}
	}

	private static List<Block> blocks(double base, double head, double noise, int n, long seed) {
		Random random = new Random(seed);
		List<Block> blocks = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			blocks.add(new Block(base * (1 + noise * random.nextGaussian()), head * (1 + noise * random.nextGaussian()),
					200 * (1 + noise * random.nextGaussian()), 200 * base / head * (1 + noise * random.nextGaussian()),
					base * (1 + noise * random.nextGaussian()), head * (1 + noise * random.nextGaussian())));
		}
		return blocks;
	}

	private static ABComparison comparison(List<Block> blocks, String baseCap, String headCap) {
		boolean named = !baseCap.equals("unexplained") && !headCap.equals("unexplained");
		return new ABComparison("registry.example.com/orders:main", "registry.example.com/orders:pr-7", false, 8, 16,
				Block.figures(blocks), baseCap, headCap, named && !baseCap.equals(headCap), blocks.size(), 42L,
				List.of(), Duration.ofSeconds(150), 0.05);
	}

}
