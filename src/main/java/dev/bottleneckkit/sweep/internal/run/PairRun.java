package dev.bottleneckkit.sweep.internal.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.internal.Console;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.WarmUp;
import dev.bottleneckkit.sweep.internal.analysis.Block;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * An A/B sweep's measuring: the base image (A) started beside the head (B, the test's own
 * service) and configured alike, both warmed up, the knee searched once on the pair with
 * A's and B's steps in turn (A B at one user count, B A at the next), then interleaved
 * blocks at the knee's users and the ceiling's, A B B A or B A A B (each load's window
 * fitted to what caps the route: {@link SweepRun#blockWindow}), or, where the CPU may cap
 * the ceiling, A and B in turns of half a second within one load at each count
 * ({@link SweepRun#loadInTurns}). After every second block from the fourth it looks, and
 * stops when it knows ({@link Block#decide}): red, green within the bound, or improved,
 * each read from intervals that stay honest however often it looked. Else it takes two
 * more, while they fit in the budget that runs from both images' start
 * ({@link Guard#DEFAULT} unless told) and it has looked at fewer than
 * {@value Block#LOOKS_UP_TO}; a guard out of time is unresolved. Loads never run at once.
 * The base is stopped and removed when the run ends, also when it fails. Which side goes
 * first in a block is drawn at random, balanced over each pair of blocks
 * ({@link BlockOrder}); the console prints the seed that replays it.
 * <p>
 * Where the CPU may cap the route, two fresh JVMs of one image differ for as long as they
 * run: each compiled its own code. There the blocks are taken two at a time on
 * {@value #PAIRS} pairs of JVMs, the second pair started alike, warmed up and settled,
 * and each interval holds the spread between pairs ({@value #PAIR_SPREAD}, calibrated),
 * shrunk by the pairs measured ({@link ABComparison#figures(List, double)}).
 */
public final class PairRun {

	/** A route that fails for most requests of one side and not the other's differs. */
	static final double MOSTLY_ERRORS = 0.5;

	/** The system property that sets the pairs of JVMs a route the CPU may cap takes. */
	static final String PAIRS_PROPERTY = "bottleneck.ab.pairs";

	/**
	 * The pairs of JVMs, A's and B's, a route the CPU may cap takes its blocks on unless
	 * told: the test's service and the base beside it, then a fresh pair started alike.
	 */
	static final int PAIRS = 2;

	/**
	 * The system property that sets the spread between two fresh JVMs of one image on a
	 * route the CPU may cap, as a percentage: {@code -Dbottleneck.ab.pair-spread=0.8%}.
	 */
	static final String PAIR_SPREAD_PROPERTY = "bottleneck.ab.pair-spread";

	/**
	 * The standard deviation of the ceiling's B/A between pairs of fresh JVMs of one
	 * image on a CPU-bound route, beyond what each pair's blocks spread: a JVM's compiled
	 * code (its inlining, its layout) is its own, and one pair of JVMs stays 1 to 3 %
	 * apart for a whole guard. Calibrated on the lab's SHA-256 route on a 2-core machine
	 * ({@code bench/ab-calibration.sh}): 25 A/A guards in 500 ms turns read the ratio
	 * ±1.24 % (a standard deviation) from guard to guard, of which their blocks' own
	 * noise explains ±0.6 %; √(1.24² − 0.6²) ≈ 1.1 %, rounded up.
	 */
	static final double PAIR_SPREAD = 0.012;

	private final AbstractServiceContainer<?> headService;

	private final DockerImageName baseImage;

	private final Guard guard;

	public PairRun(AbstractServiceContainer<?> headService, DockerImageName baseImage, Guard guard) {
		this.headService = headService;
		this.baseImage = baseImage;
		this.guard = guard;
	}

	/**
	 * What a guard may spend and what it tells apart.
	 *
	 * @param budget the time it spends after both images started: its warm-ups, the
	 * knee's search, the settling and its blocks, for all its routes
	 * @param bound the change it tells apart, as a share: it stops once each throughput
	 * figure's interval lies beyond it or within it
	 */
	public record Guard(Duration budget, double bound) {

		/** Five minutes, and {@link ABComparison#DEFAULT_BOUND}. */
		public static final Guard DEFAULT = new Guard(Duration.ofMinutes(5), ABComparison.DEFAULT_BOUND);

		public Guard within(Duration budget) {
			return new Guard(budget, this.bound);
		}

		public Guard tolerating(double bound) {
			return new Guard(this.budget, bound);
		}

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
	 * @param pairSpread the spread of one pair of fresh JVMs' ratio that the blocks'
	 * intervals hold ({@link ABComparison#figures(List, double)}): 0 where windows of A
	 * and B measure a pool or a downstream, the calibrated one where the CPU may cap
	 * @param seed the seed of the blocks' order
	 * @param took how long the pair took, the base's start included
	 * @param bound the change the guard told apart
	 */
	public record Measured(Readings base, Readings head, String baseImage, String headImage, boolean sameImage,
			int kneeUsers, int ceilingUsers, List<Block> blocks, double pairSpread, long seed, Duration took,
			double bound) {

		/** The comparison, with each side's cap as its verdict names it. */
		public ABComparison compared(Verdict baseVerdict, Verdict headVerdict) {
			return new ABComparison(this.baseImage, this.headImage, this.sameImage, this.kneeUsers, this.ceilingUsers,
					Block.atALook(this.blocks, this.pairSpread), baseVerdict.headline(), headVerdict.headline(),
					capMoved(baseVerdict, headVerdict), this.blocks.size(), this.seed, this.base.steps(), this.took,
					this.bound);
		}

	}

	/**
	 * Whether the cap moved from one resource to another: both verdicts name one, and not
	 * the same. A verdict that names none (a JVM still warming, a cap no rule knows) is
	 * no evidence of a move: an A/A run of a CPU-bound route read "unexplained" on one
	 * side and "CPU" on the other, and went red on that alone.
	 */
	public static boolean capMoved(Verdict base, Verdict head) {
		return base.cap().isPresent() && head.cap().isPresent() && !base.cap().equals(head.cap());
	}

	/** One route against the base. */
	public Measured measure(SweepRun head) {
		return measureEach(List.of(head)).get(0);
	}

	/**
	 * Each of {@code heads}, routes of the one head service, against the base, started
	 * once: one route after the other, each with its own knee, settling and blocks, the
	 * blocks' order drawn from one seed that replays them all.
	 */
	public List<Measured> measureEach(List<SweepRun> heads) {
		long started = System.nanoTime();
		String name = heads.get(0).name() + ((heads.size() > 1) ? " and " + (heads.size() - 1) + " more routes" : "");
		// A seed that is not a number is refused before anything starts.
		BlockOrder order = BlockOrder.ofRun();
		try (ServiceContainer baseService = ServiceContainer.alike(this.headService, this.baseImage, "-base")) {
			Console.line(name + ": A/B: starting the base " + this.baseImage.asCanonicalNameString()
					+ ", configured as the head");
			start(baseService, "the base", this.baseImage);
			// The budget runs from here, both images started, for every route.
			long deadline = System.nanoTime() + this.guard.budget().toNanos();
			String headImage = imageOf(this.headService);
			boolean same = imageId(this.headService).equals(imageId(baseService));
			if (same) {
				Console.line(name + ": A/B: the base and the head are the same image ("
						+ imageId(baseService).replace("sha256:", "").substring(0, 12) + "): an A/A comparison");
			}
			// Each JVM warms up once for all the routes, on all their requests, one after
			// the other: two JVMs warmed up at once on two cores read quiet before their
			// JIT was done, and their blocks spread ±2.7 %, not ±0.9 %. Each route then
			// settles both at its ceiling's users.
			long warming = System.nanoTime();
			SweepRun all = SweepRun.together(heads, name);
			SweepRun allOnTheBase = all.on(baseService, " [A]");
			Warmed warmed = new Warmed(allOnTheBase.warming().warmUp(allOnTheBase.name(), false),
					all.warming().warmUp(all.name(), false), warming);
			List<Measured> measured = new ArrayList<>();
			for (SweepRun head : heads) {
				// Each route draws its blocks' order further along the one seed's.
				int firstBlock = measured.size() * Block.LOOKS_UP_TO;
				measured.add(measure(head, head.on(baseService, " [A]"), headImage, same,
						measured.isEmpty() ? started : System.nanoTime(), order, firstBlock, deadline,
						measured.isEmpty() ? warmed : warmed.since(System.nanoTime())));
			}
			return measured;
		}
	}

	private Measured measure(SweepRun head, SweepRun base, String headImage, boolean same, long started,
			BlockOrder order, int firstBlock, long deadline, Warmed warmed) {
		String name = head.name();
		long searching = warmed.began();
		Optional<WarmUp> baseWarmUp = warmed.base();
		Optional<WarmUp> headWarmUp = warmed.head();
		try (Probes baseProbes = base.openProbes();
				Probes headProbes = head.openProbes();
				RunHook.Load loading = RunHook.installed().loads(name + ", A/B")) {
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
			List<Record> baseSettings = baseProbes.readSettings(baseSide.steps());
			List<Record> headSettings = headProbes.readSettings(headSide.steps());
			Readings baseReadings = new Readings(baseSide.steps(), baseSide.saturated(), baseWarmUp, baseProbes.blind(),
					baseProbes.meters(), Duration.ZERO, baseSettings);
			// The pair's time is the comparison's: the head's readings count none of it
			// twice.
			Readings headReadings = new Readings(headSide.steps(), headSide.saturated(), headWarmUp, headProbes.blind(),
					headProbes.meters(), Duration.ZERO, headSettings);
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
			int pairs = inTurns ? pairsOfRun() : 1;
			double pairSpread = inTurns ? pairSpreadOfRun() : 0;
			Console.line(String.format(Locale.ROOT,
					"%s: A/B: blocks at %d and %d users, %s %d s or more each (%s), the order drawn from seed %d"
							+ " (-D%s=%d replays it)%s",
					name, kneeUsers, ceilingUsers,
					inTurns ? "A and B in turns of " + SweepRun.TURN_MILLIS + " ms or more," : "windows of",
					window.toSeconds(), inTurns ? "the CPU may cap the ceiling" : "the CPU aside at the ceiling",
					order.seed(), BlockOrder.SEED_PROPERTY, order.seed(),
					inTurns ? String.format(Locale.ROOT,
							", on %d %s of JVMs: two fresh JVMs of one image differ by ±%.1f %% (-D%s, -D%s)", pairs,
							(pairs == 1) ? "pair" : "pairs", 100 * pairSpread, PAIRS_PROPERTY, PAIR_SPREAD_PROPERTY)
							: ""));
			List<Block> blocks = onPairs(head, base, headImage, pairs, baseReadings, headReadings, ceilingUsers,
					(runs) -> blocks(runs, baseReadings, headReadings, kneeUsers, ceilingUsers, window, order,
							firstBlock, pairSpread, deadline));
			long ended = System.nanoTime();
			Console.line(String.format(Locale.ROOT,
					"%s: A/B took %d s: the base's start %d s, warm-ups, the knee's search and settling %d s, %d blocks"
							+ " %d s",
					name, (ended - started) / 1_000_000_000, (searching - started) / 1_000_000_000,
					(blocking - searching) / 1_000_000_000, blocks.size(), (ended - blocking) / 1_000_000_000));
			return new Measured(baseReadings, headReadings, this.baseImage.asCanonicalNameString(), headImage, same,
					kneeUsers, ceilingUsers, blocks, pairSpread, order.seed(),
					Duration.ofNanos(System.nanoTime() - started), this.guard.bound());
		}
	}

	/**
	 * Both JVMs' warm-ups, once for all the routes, and when they began: the first
	 * route's search counts them, the others' begins later.
	 */
	private record Warmed(Optional<WarmUp> base, Optional<WarmUp> head, long began) {

		Warmed since(long now) {
			return new Warmed(this.base, this.head, now);
		}

	}

	/**
	 * Each side loaded at the ceiling's users until its compilers are quiet there
	 * ({@link WarmUpRun#settle}), the base first: the blocks then measure each side's
	 * code and not its JIT. A CPU-bound route's blocks spread by ±5 to 11 % where both
	 * JVMs still compiled at that load after a warm-up that went quiet at two users.
	 */
	private void settle(SweepRun head, SweepRun base, Readings baseReadings, Readings headReadings, int ceiling) {
		String name = head.name();
		String what = ", A/B settling at " + ceiling + " users";
		try (RunHook.Span settling = RunHook.installed().begin(RunHook.Work.WARM_UP, name + what)) {
			Settling a = base.warming().settle(ceiling, latencyAt(baseReadings, ceiling), base.name() + what);
			Settling b = head.warming().settle(ceiling, latencyAt(headReadings, ceiling), name + what);
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
	 * draws; the first block is {@code firstBlock} of the order. The blocks go two at a
	 * time to each of {@code pairs} of JVMs in turn.
	 */
	private List<Block> blocks(List<Pair> pairs, Readings baseReadings, Readings headReadings, int knee, int ceiling,
			Duration window, BlockOrder order, int firstBlock, double pairSpread, long deadline) {
		List<Block> blocks = new ArrayList<>();
		String name = pairs.get(0).head().name();
		Duration w1 = baseReadings.oneUserLatency();
		Duration atKnee = latencyAt(baseReadings, knee);
		Duration atCeiling = latencyAt(baseReadings, ceiling).compareTo(latencyAt(headReadings, ceiling)) >= 0
				? latencyAt(baseReadings, ceiling) : latencyAt(headReadings, ceiling);
		double bound = this.guard.bound();
		double pairsTerm = Block.pairsTerm(pairSpread, pairs.size());
		if (pairsTerm >= Math.log1p(bound)) {
			Console.line(String.format(Locale.ROOT,
					"%s: A/B: green is out of reach at %s: %d %s of fresh JVMs alone leave ±%.1f %%; the guard can"
							+ " still tell red (Sweep.tolerating(withPercentage(%d)) can tell green)",
					name, ABComparison.percent(bound), pairs.size(), (pairs.size() == 1) ? "pair" : "pairs",
					100 * Math.expm1(pairsTerm), (int) Math.ceil(100 * Math.expm1(pairsTerm) + 0.5)));
		}
		Block.Decision decision = Block.Decision.MORE;
		long began = System.nanoTime();
		long pairBegan = began;
		long lastPair = 0;
		while (decision == Block.Decision.MORE && blocks.size() < Block.LOOKS_UP_TO && (blocks.size() < Block.FIRST_LOOK
				|| blocks.size() % 2 == 1 || System.nanoTime() + lastPair <= deadline)) {
			if (blocks.size() % 2 == 0) {
				pairBegan = System.nanoTime();
			}
			boolean baseFirst = order.baseFirst(firstBlock + blocks.size());
			// Each pair of JVMs takes two blocks in turn, A first in one of them.
			int pair = (blocks.size() / 2) % pairs.size();
			SweepRun base = pairs.get(pair).base();
			SweepRun head = pairs.get(pair).head();
			String block = "A/B block " + (blocks.size() + 1) + (baseFirst ? " (A first)" : " (B first)")
					+ ((pairs.size() > 1) ? ", pair " + (pair + 1) : "");
			Block measured = inTurns(window)
					? blockInTurns(base, head, baseFirst, knee, atKnee, ceiling, atCeiling, w1, window, block, pair)
					: blockInWindows(base, head, baseFirst, knee, atKnee, ceiling, atCeiling, w1, window, block, pair);
			blocks.add(measured);
			Console.line(String.format(Locale.ROOT, "%s: %s: A %.2f / B %.2f rps at %d users, A %.2f / B %.2f at %d%s",
					name, block, measured.baseKneeRps(), measured.headKneeRps(), knee, measured.baseCeilingRps(),
					measured.headCeilingRps(), ceiling,
					inTurns(window) ? ", at full load in " + SweepRun.turn(atCeiling).toMillis() + " ms turns" : ""));
			if (blocks.size() % 2 == 0) {
				lastPair = System.nanoTime() - pairBegan;
				decision = Block.decide(blocks, pairSpread, bound);
			}
		}
		Console.line(String.format(Locale.ROOT, "%s: A/B: %s after %d blocks in %d s%s", name, switch (decision) {
			case REGRESSED -> "red beyond " + ABComparison.percent(bound);
			case WITHIN -> "green, no change beyond " + ABComparison.percent(bound);
			case IMPROVED -> "improved beyond " + ABComparison.percent(bound);
			case MORE -> "unresolved at " + ABComparison.percent(bound);
		}, blocks.size(), (System.nanoTime() - began) / 1_000_000_000,
				(decision == Block.Decision.MORE)
						? (blocks.size() >= Block.LOOKS_UP_TO ? ": the most blocks a guard looks at"
								: ": the budget's end came before the next pair of blocks")
						: ""));
		return blocks;
	}

	/**
	 * A block in one load in turns at each count: A's turn first at the knee where
	 * {@code baseFirst}, B's first at the ceiling; each side's rate at full load.
	 */
	private static Block blockInTurns(SweepRun base, SweepRun head, boolean baseFirst, int knee, Duration atKnee,
			int ceiling, Duration atCeiling, Duration w1, Duration window, String block, int pair) {
		LoadResult.InTurns kneeTurns = base.loadInTurns(head, baseFirst, knee, w1, atKnee, window,
				block + ", " + knee + " users in turns");
		LoadResult.InTurns ceilingTurns = base.loadInTurns(head, !baseFirst, ceiling, w1, atCeiling, window,
				block + ", " + ceiling + " users in turns");
		return new Block(rate(kneeTurns.firstSide(), kneeTurns.first()),
				rate(kneeTurns.secondSide(), kneeTurns.second()), kneeTurns.first().p99().toNanos() / 1e6,
				kneeTurns.second().p99().toNanos() / 1e6, rate(ceilingTurns.firstSide(), ceilingTurns.first()),
				rate(ceilingTurns.secondSide(), ceilingTurns.second()), pair);
	}

	/**
	 * A block in four windows: A B at the knee then B A at the ceiling where
	 * {@code baseFirst}, else B A then A B.
	 */
	private static Block blockInWindows(SweepRun base, SweepRun head, boolean baseFirst, int knee, Duration atKnee,
			int ceiling, Duration atCeiling, Duration w1, Duration window, String block, int pair) {
		LoadResult kneeFirst = (baseFirst ? base : head).load(knee, w1, atKnee, window, block + ", " + knee + " users");
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
		return new Block(baseKnee.throughput(), headKnee.throughput(), baseKnee.p99().toNanos() / 1e6,
				headKnee.p99().toNanos() / 1e6, baseCeiling.throughput(), headCeiling.throughput(), pair);
	}

	/** A's and B's runs on one pair of JVMs. */
	record Pair(SweepRun base, SweepRun head) {
	}

	/**
	 * {@code measure} run on {@code pairs} pairs of JVMs: the first the test's service
	 * ({@code head}) and the base beside it ({@code base}), the others each a base and a
	 * head started alike, warmed up and settled at the ceiling's users as the first were,
	 * and stopped and removed when {@code measure} returns, also when it fails.
	 */
	private List<Block> onPairs(SweepRun head, SweepRun base, String headImage, int pairs, Readings baseReadings,
			Readings headReadings, int ceiling, Function<List<Pair>, List<Block>> measure) {
		List<ServiceContainer> started = new ArrayList<>();
		try {
			List<Pair> runs = new ArrayList<>(List.of(new Pair(base, head)));
			for (int pair = 2; pair <= pairs; pair++) {
				String suffix = " [pair " + pair + "]";
				DockerImageName head2 = DockerImageName.parse(headImage);
				ServiceContainer baseJvm = ServiceContainer.alike(this.headService, this.baseImage, "-base-" + pair);
				started.add(baseJvm);
				start(baseJvm, head.name() + suffix + ": the base", this.baseImage);
				ServiceContainer headJvm = ServiceContainer.alike(this.headService, head2, "-" + pair);
				started.add(headJvm);
				start(headJvm, head.name() + suffix + ": the head", head2);
				Pair fresh = new Pair(head.on(baseJvm, " [A]" + suffix), head.on(headJvm, suffix));
				fresh.base().warming().warmUp(fresh.base().name(), false);
				fresh.head().warming().warmUp(fresh.head().name(), false);
				settle(fresh.head(), fresh.base(), baseReadings, headReadings, ceiling);
				runs.add(fresh);
			}
			return measure.apply(runs);
		}
		finally {
			started.forEach(ServiceContainer::stop);
		}
	}

	/**
	 * Starts {@code container}, a service of the run's own ({@code what}) from
	 * {@code image}; a start that fails says in one line which image and what to do.
	 */
	private static ServiceContainer start(ServiceContainer container, String what, DockerImageName image) {
		try (RunHook.Span starting = RunHook.installed()
			.begin(RunHook.Work.SWEEP_START, what + " " + image.asCanonicalNameString())) {
			container.start();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("A/B: " + what + " image " + image.asCanonicalNameString()
					+ " did not start (" + String.valueOf(ex.getMessage()).lines().findFirst().orElse("")
					+ "): build it from main's tree (git worktree add ../main main, then the image build there)"
					+ " or name another with -Dbottleneck.against", ex);
		}
		return container;
	}

	/**
	 * The pairs of JVMs the run names with {@value #PAIRS_PROPERTY}, or {@value #PAIRS}.
	 */
	static int pairsOfRun() {
		String value = System.getProperty(PAIRS_PROPERTY);
		if (value == null || value.isBlank()) {
			return PAIRS;
		}
		try {
			return Knobs.between("-D" + PAIRS_PROPERTY, Integer.parseInt(value.trim()), 1, 4);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("-D" + PAIRS_PROPERTY + "=" + value
					+ " is not a number of pairs of JVMs: give 1 to 4, such as -D" + PAIRS_PROPERTY + "=3", ex);
		}
	}

	/**
	 * The spread between pairs of JVMs the run names with {@value #PAIR_SPREAD_PROPERTY},
	 * or {@link #PAIR_SPREAD}.
	 */
	static double pairSpreadOfRun() {
		String value = System.getProperty(PAIR_SPREAD_PROPERTY);
		if (value == null || value.isBlank()) {
			return PAIR_SPREAD;
		}
		String percent = value.trim();
		String refused = "-D" + PAIR_SPREAD_PROPERTY + "=" + value
				+ " is not a spread: give a percentage from 0 % to 20 %, such as -D" + PAIR_SPREAD_PROPERTY
				+ "=0.8% (the standard deviation of A/A guards' ceiling B/A on your machine)";
		if (!percent.endsWith("%")) {
			throw new IllegalArgumentException(refused);
		}
		try {
			return Knobs.between("-D" + PAIR_SPREAD_PROPERTY,
					Double.parseDouble(percent.substring(0, percent.length() - 1).trim()), 0, 20) / 100;
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(refused, ex);
		}
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
	public static void sameAnswers(DockerImageName baseImage, String route, Step base, Step head) {
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
