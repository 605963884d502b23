package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.LoadResult;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * An A/B sweep's measuring: the base image (A) started beside the head (B, the test's own
 * service) and configured alike, both warmed up, the knee searched once on the pair with
 * A's and B's steps in turn (A B at one user count, B A at the next), then interleaved
 * blocks at the knee's users and the ceiling's, A B B A or B A A B (each load's window
 * fitted to what caps the route: {@link SweepRun#blockWindow}), or, where the CPU may cap
 * the ceiling, A and B in turns of half a second within one load at each count
 * ({@link SweepRun#loadInTurns}), until the throughput's ratio is known to
 * {@value ABComparison#EARLY_PRECISION} after {@value ABComparison#EARLY_BLOCKS} blocks
 * or to {@value ABComparison#PRECISION} after {@value ABComparison#MIN_BLOCKS}, or
 * {@value ABComparison#MAX_BLOCKS} blocks were measured. Loads never run at once. The
 * base is stopped and removed when the run ends, also when it fails. Which side goes
 * first in a block is drawn at random, balanced over each pair of blocks
 * ({@link BlockOrder}); the console prints the seed that replays it.
 */
final class PairRun {

	/** A route that fails for most requests of one side and not the other's differs. */
	static final double MOSTLY_ERRORS = 0.5;

	private final AbstractServiceContainer<?> headService;

	private final DockerImageName baseImage;

	PairRun(AbstractServiceContainer<?> headService, DockerImageName baseImage) {
		this.headService = headService;
		this.baseImage = baseImage;
	}

	/**
	 * What the pair measured: each side's readings, for its own verdict, and the blocks
	 * at the knee's users and the ceiling's.
	 *
	 * @param base the base's readings (A)
	 * @param head the head's readings (B)
	 * @param baseImage the base, as the run named it
	 * @param headImage the head
	 * @param sameImage whether both are one image by id
	 * @param kneeUsers the users of the knee
	 * @param ceilingUsers the users of the ceiling
	 * @param blocks the interleaved blocks
	 * @param seed the seed of the blocks' order
	 * @param took how long the pair took, the base's start included
	 */
	record Measured(Readings base, Readings head, String baseImage, String headImage, boolean sameImage, int kneeUsers,
			int ceilingUsers, List<ABComparison.Block> blocks, long seed, Duration took) {

		/** The comparison, with each side's cap as its verdict names it. */
		ABComparison compared(Verdict baseVerdict, Verdict headVerdict) {
			return new ABComparison(this.baseImage, this.headImage, this.sameImage, this.kneeUsers, this.ceilingUsers,
					ABComparison.figures(this.blocks), baseVerdict.headline(), headVerdict.headline(),
					capMoved(baseVerdict, headVerdict), this.blocks.size(), this.seed, this.base.steps(), this.took);
		}

	}

	/**
	 * Whether the cap moved from one resource to another: both verdicts name one, and not
	 * the same. A verdict that names none (a JVM still warming, a cap no rule knows) is
	 * no evidence of a move: an A/A run of a CPU-bound route read "unexplained" on one
	 * side and "CPU" on the other, and went red on that alone.
	 */
	static boolean capMoved(Verdict base, Verdict head) {
		return base.cap().isPresent() && head.cap().isPresent() && !base.cap().equals(head.cap());
	}

	/** One route against the base. */
	Measured measure(SweepRun head) {
		return measureEach(List.of(head)).get(0);
	}

	/**
	 * Each of {@code heads}, routes of the one head service, against the base, started
	 * once: one route after the other, each with its own knee, settling and blocks, the
	 * blocks' order drawn from one seed that replays them all.
	 */
	List<Measured> measureEach(List<SweepRun> heads) {
		long started = System.nanoTime();
		String name = heads.get(0).name() + ((heads.size() > 1) ? " and " + (heads.size() - 1) + " more routes" : "");
		// A seed that is not a number is refused before anything starts.
		BlockOrder order = BlockOrder.ofRun();
		try (ServiceContainer baseService = ServiceContainer.alike(this.headService, this.baseImage, "-base")) {
			Console.line(name + ": A/B: starting the base " + this.baseImage.asCanonicalNameString()
					+ ", configured as the head");
			try (RunHook.Span starting = RunHook.installed()
				.begin(RunHook.Work.SWEEP_START, "the base " + this.baseImage.asCanonicalNameString())) {
				baseService.start();
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("A/B: the base image " + this.baseImage.asCanonicalNameString()
						+ " did not start (" + ex.getMessage().lines().findFirst().orElse("")
						+ "): build it from main's tree (git worktree add ../main main, then the image build there)"
						+ " or name another with -Dbottleneck.against", ex);
			}
			String headImage = imageOf(this.headService);
			boolean same = imageId(this.headService).equals(imageId(baseService));
			if (same) {
				Console.line(name + ": A/B: the base and the head are the same image ("
						+ imageId(baseService).replace("sha256:", "").substring(0, 12) + "): an A/A comparison");
			}
			List<Measured> measured = new ArrayList<>();
			for (SweepRun head : heads) {
				// Each route draws its blocks' order further along the one seed's.
				int firstBlock = measured.size() * ABComparison.MAX_BLOCKS;
				measured.add(measure(head, head.on(baseService, " [A]"), headImage, same,
						measured.isEmpty() ? started : System.nanoTime(), order, firstBlock));
			}
			return measured;
		}
	}

	private Measured measure(SweepRun head, SweepRun base, String headImage, boolean same, long started,
			BlockOrder order, int firstBlock) {
		String name = head.name();
		long searching = System.nanoTime();
		try (Probes baseProbes = base.openProbes();
				Probes headProbes = head.openProbes();
				RunHook.Load loading = RunHook.installed().loads(name + ", A/B")) {
			Optional<WarmUp> baseWarmUp = base.warmUp(base.name());
			Optional<WarmUp> headWarmUp = head.warmUp(name);
			Climb climb = new Climb(name + ", A/B",
					List.of(new Climb.Side(base::step, baseProbes), new Climb.Side(head::step, headProbes)),
					head.maxUsers());
			climb.climb(loading, (users, steps) -> {
				Step baseStep = steps.get(0);
				Step headStep = steps.get(1);
				Console.line(String.format(Locale.ROOT, "%s: A/B %4d %-5s A %8.1f rps  B %8.1f rps", name, users,
						(users == 1) ? "user" : "users", baseStep.throughput(), headStep.throughput()));
				if (users == 1) {
					sameAnswers(this.baseImage, head.target().getPath(), baseStep, headStep);
				}
			});
			Climb.Side baseSide = climb.sides().get(0);
			Climb.Side headSide = climb.sides().get(1);
			List<RateLimits.Rate> baseRates = baseProbes.readRates(baseSide.steps());
			List<RateLimits.Rate> headRates = headProbes.readRates(headSide.steps());
			Readings baseReadings = new Readings(baseSide.steps(), baseSide.saturated(), baseWarmUp, baseProbes.blind(),
					baseProbes.meters(), Duration.ZERO, baseRates);
			// The pair's time is the comparison's: the head's readings count none of it
			// twice.
			Readings headReadings = new Readings(headSide.steps(), headSide.saturated(), headWarmUp, headProbes.blind(),
					headProbes.meters(), Duration.ZERO, headRates);
			int ceilingUsers = headReadings.last().users();
			int kneeUsers = baseReadings.knee()
				.or(headReadings::knee)
				.map(Step::users)
				.filter((knee) -> knee < ceilingUsers)
				.orElse(Math.max(1, ceilingUsers / 2));
			settle(head, base, baseReadings, headReadings, ceilingUsers);
			long blocking = System.nanoTime();
			Duration window = SweepRun.blockWindow(stepAt(baseReadings, ceilingUsers),
					stepAt(headReadings, ceilingUsers));
			boolean inTurns = inTurns(window);
			Console.line(String.format(Locale.ROOT,
					"%s: A/B: blocks at %d and %d users, %s %d s or more each (%s), the order drawn from seed %d"
							+ " (-D%s=%d replays it)",
					name, kneeUsers, ceilingUsers,
					inTurns ? "A and B in turns of " + SweepRun.TURN_MILLIS + " ms or more," : "windows of",
					window.toSeconds(), inTurns ? "the CPU may cap the ceiling" : "the CPU aside at the ceiling",
					order.seed(), BlockOrder.SEED_PROPERTY, order.seed()));
			List<ABComparison.Block> blocks = blocks(head, base, baseReadings, headReadings, kneeUsers, ceilingUsers,
					window, order, firstBlock);
			long ended = System.nanoTime();
			Console.line(String.format(Locale.ROOT,
					"%s: A/B took %d s: the base's start %d s, warm-ups, the knee's search and settling %d s, %d blocks"
							+ " %d s",
					name, (ended - started) / 1_000_000_000, (searching - started) / 1_000_000_000,
					(blocking - searching) / 1_000_000_000, blocks.size(), (ended - blocking) / 1_000_000_000));
			return new Measured(baseReadings, headReadings, this.baseImage.asCanonicalNameString(), headImage, same,
					kneeUsers, ceilingUsers, blocks, order.seed(), Duration.ofNanos(System.nanoTime() - started));
		}
	}

	/**
	 * Each side loaded at the ceiling's users until its compilers are quiet there
	 * ({@link SweepRun#settle}), the base first: the blocks then measure each side's code
	 * and not its JIT. A CPU-bound route's blocks spread by ±5 to 11 % where both JVMs
	 * still compiled at that load after a warm-up that went quiet at two users.
	 */
	private void settle(SweepRun head, SweepRun base, Readings baseReadings, Readings headReadings, int ceiling) {
		String name = head.name();
		String what = ", A/B settling at " + ceiling + " users";
		try (RunHook.Span settling = RunHook.installed().begin(RunHook.Work.WARM_UP, name + what)) {
			Settling a = base.settle(ceiling, latencyAt(baseReadings, ceiling), base.name() + what);
			Settling b = head.settle(ceiling, latencyAt(headReadings, ceiling), name + what);
			Console.line(name + ": A/B: settled at " + ceiling + " users: A " + a + "; B " + b);
		}
	}

	/**
	 * Whether a block's loads take A and B in turns ({@link SweepRun#loadInTurns}): where
	 * the CPU may cap the ceiling ({@link SweepRun#blockWindow} picks the longer window).
	 * There the cores' speed drifts by more over a few seconds than a guard resolves, and
	 * only A and B close in time meet the same machine; a route that waits for a pool or
	 * a downstream loses nothing to the drift and keeps its A B B A windows.
	 */
	static boolean inTurns(Duration window) {
		return window.toSeconds() >= SweepRun.BLOCK_WINDOW_SECONDS;
	}

	/**
	 * Interleaved blocks at {@code knee} and {@code ceiling} users until the ratio is
	 * known well enough: A B B A or B A A B as {@code order} draws, each load with a
	 * step's warm-up and a window of {@code window} or more, or, where the CPU may cap
	 * the ceiling, one load in turns at each count, A's turn first or B's as the order
	 * draws; the first block is {@code firstBlock} of the order.
	 */
	private List<ABComparison.Block> blocks(SweepRun head, SweepRun base, Readings baseReadings, Readings headReadings,
			int knee, int ceiling, Duration window, BlockOrder order, int firstBlock) {
		List<ABComparison.Block> blocks = new ArrayList<>();
		Duration w1 = baseReadings.oneUserLatency();
		Duration atKnee = latencyAt(baseReadings, knee);
		Duration atCeiling = latencyAt(baseReadings, ceiling).compareTo(latencyAt(headReadings, ceiling)) >= 0
				? latencyAt(baseReadings, ceiling) : latencyAt(headReadings, ceiling);
		while (blocks.size() < ABComparison.MAX_BLOCKS && !ABComparison.precise(blocks)) {
			boolean baseFirst = order.baseFirst(firstBlock + blocks.size());
			String block = "A/B block " + (blocks.size() + 1) + (baseFirst ? " (A first)" : " (B first)");
			if (inTurns(window)) {
				LoadResult.InTurns kneeTurns = base.loadInTurns(head, baseFirst, knee, w1, atKnee, window,
						block + ", " + knee + " users in turns");
				LoadResult.InTurns ceilingTurns = base.loadInTurns(head, !baseFirst, ceiling, w1, atCeiling, window,
						block + ", " + ceiling + " users in turns");
				blocks.add(new ABComparison.Block(rate(kneeTurns.firstSide(), kneeTurns.first()),
						rate(kneeTurns.secondSide(), kneeTurns.second()), kneeTurns.first().p99().toNanos() / 1e6,
						kneeTurns.second().p99().toNanos() / 1e6, rate(ceilingTurns.firstSide(), ceilingTurns.first()),
						rate(ceilingTurns.secondSide(), ceilingTurns.second())));
				Console.line(String.format(Locale.ROOT,
						"%s: %s: A %.2f / B %.2f rps at %d users, A %.2f / B %.2f at %d, at full load in %d ms turns",
						head.name(), block, blocks.getLast().baseKneeRps(), blocks.getLast().headKneeRps(), knee,
						blocks.getLast().baseCeilingRps(), blocks.getLast().headCeilingRps(), ceiling,
						ceilingTurns.turn().toMillis()));
				continue;
			}
			LoadResult kneeFirst = (baseFirst ? base : head).load(knee, w1, atKnee, window,
					block + ", " + knee + " users");
			LoadResult kneeSecond = (baseFirst ? head : base).load(knee, w1, atKnee, window,
					block + ", " + knee + " users");
			LoadResult ceilingFirst = (baseFirst ? head : base).load(ceiling, w1, atCeiling, window,
					block + ", " + ceiling + " users");
			LoadResult ceilingSecond = (baseFirst ? base : head).load(ceiling, w1, atCeiling, window,
					block + ", " + ceiling + " users");
			LoadResult baseKnee = baseFirst ? kneeFirst : kneeSecond;
			LoadResult headKnee = baseFirst ? kneeSecond : kneeFirst;
			LoadResult baseCeiling = baseFirst ? ceilingSecond : ceilingFirst;
			LoadResult headCeiling = baseFirst ? ceilingFirst : ceilingSecond;
			blocks.add(
					new ABComparison.Block(baseKnee.throughput(), headKnee.throughput(), baseKnee.p99().toNanos() / 1e6,
							headKnee.p99().toNanos() / 1e6, baseCeiling.throughput(), headCeiling.throughput()));
			Console.line(String.format(Locale.ROOT, "%s: %s: A %.2f / B %.2f rps at %d users, A %.2f / B %.2f at %d",
					head.name(), block, baseKnee.throughput(), headKnee.throughput(), knee, baseCeiling.throughput(),
					headCeiling.throughput(), ceiling));
		}
		return blocks;
	}

	/**
	 * A side's rate at full load in a load in turns; its throughput over the window where
	 * the other side's drain took every turn.
	 */
	private static double rate(LoadResult.InTurns.Side side, LoadResult whole) {
		return side.rate().orElse(whole.throughput());
	}

	/**
	 * The mean latency {@code readings} measured at {@code users}, or at its last step.
	 */
	private static Duration latencyAt(Readings readings, int users) {
		return stepAt(readings, users).meanLatency();
	}

	/** The step {@code readings} measured at {@code users}, or its last. */
	private static Step stepAt(Readings readings, int users) {
		return readings.steps().stream().filter((step) -> step.users() == users).findFirst().orElse(readings.last());
	}

	/**
	 * Both sides answer the route alike: one side failing most requests where the other
	 * does not is two services, not a change.
	 */
	static void sameAnswers(DockerImageName baseImage, String route, Step base, Step head) {
		boolean baseFails = mostlyErrors(base);
		boolean headFails = mostlyErrors(head);
		if (baseFails != headFails) {
			throw new IllegalStateException(String.format(Locale.ROOT,
					"A/B: the base (%s) answers %s where the head answers %s on %s: they do not serve the same route;"
							+ " compare two images of one service",
					baseImage.asCanonicalNameString(), answers(base), answers(head), route));
		}
	}

	private static boolean mostlyErrors(Step step) {
		long completed = step.result().completed();
		return completed == 0 || step.result().errorCount() >= MOSTLY_ERRORS * completed;
	}

	private static String answers(Step step) {
		return step.result().errors().isEmpty() ? step.result().succeeded() + " successes"
				: step.result().errors().toString();
	}

	private static String imageOf(AbstractServiceContainer<?> service) {
		return service.image().map(DockerImageName::asCanonicalNameString).orElse(service.getDockerImageName());
	}

	/** The id of the image {@code service} runs: two names of one image are one id. */
	private static String imageId(AbstractServiceContainer<?> service) {
		return DockerClientFactory.lazyClient().inspectContainerCmd(service.getContainerId()).exec().getImageId();
	}

}
