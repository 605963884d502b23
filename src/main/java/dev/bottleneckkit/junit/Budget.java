package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.internal.RunHook.Replay;

/**
 * Where a test run's seconds went, per scenario class and in all: the measured windows
 * (the part the statistics need) against everything around them, container starts, image
 * builds, warm-ups, waiting for a turn, probes. The suite's hook ({@link SuiteHook})
 * records each span as the measuring path tells it, on the thread of the class that
 * caused it; the report writes the sums. Nothing is recorded where no hook was installed.
 */
final class Budget {

	/** What a span of time was spent on. */
	enum Category {

		/** Loads' measurement windows: what the figures are counted over. */
		WINDOWS("measured windows"),

		/** Loads' warm-ups before their windows, sweeps' warm-up rounds included. */
		WARM_UPS("warm-ups"),

		/**
		 * A load's run around its window and warm-up: connecting its users, and the
		 * answers in flight at the window's end, which it waits for (their lives count in
		 * the throughput).
		 */
		TAILS("load tails"),

		/** Containers from start to healthy (several at once count once). */
		STARTS("container starts"),

		/** Images built or pulled during the run. */
		IMAGES("image builds and pulls"),

		/**
		 * Waiting for a turn: loads for starts to end, starts for loads, loads for a
		 * slot.
		 */
		WAITING("waiting for a turn"),

		/**
		 * Reading probes outside a load: thread dumps, JFR snapshots, CPU, starting
		 * readers.
		 */
		PROBES("probes"),

		/** Containers stopped. */
		STOPS("container stops");

		private final String label;

		Category(String label) {
			this.label = label;
		}

		/** How the report names it. */
		String label() {
			return this.label;
		}

	}

	private static final InheritableThreadLocal<String> owner = new InheritableThreadLocal<>();

	/**
	 * A category this thread's load windows count as instead (a sweep's warm-up rounds).
	 */
	private static final ThreadLocal<Category> windowsAs = new ThreadLocal<>();

	private static final Map<String, Map<Category, Long>> spent = new ConcurrentHashMap<>();

	private static final Map<String, Long> walls = new ConcurrentHashMap<>();

	private static final Map<String, List<Window>> windows = new ConcurrentHashMap<>();

	/** Each class's time holding a load slot (nanos): its loads' turns, sweeps whole. */
	private static final Map<String, Long> turns = new ConcurrentHashMap<>();

	/** The run's load turns as [began, ended] (nanoTime), for the slot's busy time. */
	private static final List<long[]> turnSpans = java.util.Collections.synchronizedList(new ArrayList<>());

	/** Loads that went beside another. */
	private static final AtomicInteger loadsBeside = new AtomicInteger();

	/**
	 * The run's span: the first class's beginning and the last class's end (nanoTime).
	 */
	private static final long[] span = { Long.MAX_VALUE, Long.MIN_VALUE };

	private Budget() {
	}

	/** Whether anything was recorded: a run with no hook installed records nothing. */
	static boolean recorded() {
		return !spent.isEmpty() || !walls.isEmpty();
	}

	/** From now on, this thread's spans count for {@code className}. */
	static void owner(String className) {
		owner.set(className);
	}

	/** The class this thread's spans count for. */
	static String owner() {
		String name = owner.get();
		return (name != null) ? name : "(outside a scenario class)";
	}

	/** Adds {@code nanos} spent on {@code category} to this thread's class. */
	static void add(Category category, long nanos) {
		if (nanos > 0) {
			spent.computeIfAbsent(owner(), (name) -> new ConcurrentHashMap<>()).merge(category, nanos, Long::sum);
		}
	}

	/**
	 * From now until the result is closed, this thread's load windows count as
	 * {@code category} (a sweep's warm-up rounds are loads whose windows are warm-up).
	 */
	static Span windowsAs(Category category) {
		Category before = windowsAs.get();
		windowsAs.set(category);
		return () -> windowsAs.set(before);
	}

	/** What a span of time ends with: closing it counts the time. */
	@FunctionalInterface
	interface Span extends AutoCloseable {

		@Override
		void close();

	}

	/**
	 * Adds a load's warm-up and window, the rest of its run ({@code ran} in all) as its
	 * tail, and the window's precision.
	 */
	static void load(String name, Duration warmUp, Duration window, Duration ran, long answers, double[] perSecond) {
		load(name, warmUp, window, ran, answers, perSecond, List.of(), OptionalDouble.empty());
	}

	/**
	 * Adds a load's warm-up and window, the rest of its run ({@code ran} in all) as its
	 * tail, and the window's precision, with what shorter windows would have read and how
	 * busy the machine's cores were over the run ({@link #cpuSince()}).
	 */
	static void load(String name, Duration warmUp, Duration window, Duration ran, long answers, double[] perSecond,
			List<Replay> replays, OptionalDouble machineBusy) {
		add(Category.WARM_UPS, warmUp.toNanos());
		add(Category.TAILS, ran.minus(warmUp).minus(window).toNanos());
		Category as = windowsAs.get();
		if (as != null) {
			add(as, window.toNanos());
			return;
		}
		add(Category.WINDOWS, window.toNanos());
		windows.computeIfAbsent(owner(), (k) -> java.util.Collections.synchronizedList(new ArrayList<>()))
			.add(new Window(name, window, answers, perSecond, List.copyOf(replays), ran, machineBusy));
	}

	private static final LoadSlots.ProcStat PROC_STAT = new LoadSlots.ProcStat(java.nio.file.Path.of("/proc/stat"));

	/**
	 * The machine's CPU from now on: {@link CpuSince#busyShare()} says how busy its cores
	 * were since, whatever ran on them.
	 */
	static CpuSince cpuSince() {
		return new CpuSince(PROC_STAT.ticks());
	}

	/** A reading of the machine's CPU ticks to measure from. */
	record CpuSince(Optional<long[]> from) {

		/**
		 * The share of the machine's core time busy since the reading, 0 to 1; empty
		 * where {@code /proc/stat} cannot be read or no tick passed.
		 */
		OptionalDouble busyShare() {
			Optional<long[]> to = PROC_STAT.ticks();
			if (this.from.isEmpty() || to.isEmpty() || to.get()[1] <= this.from.get()[1]) {
				return OptionalDouble.empty();
			}
			return OptionalDouble.of((to.get()[0] - this.from.get()[0]) / (double) (to.get()[1] - this.from.get()[1]));
		}

	}

	/**
	 * From now until the result is closed, this thread's time counts as {@code category}.
	 */
	static Span span(Category category) {
		long started = System.nanoTime();
		return () -> add(category, System.nanoTime() - started);
	}

	/** The whole of a class's run, from its first container to its last test's end. */
	static void wall(String className, long nanos) {
		walls.merge(className, nanos, Long::sum);
		long ended = System.nanoTime();
		synchronized (span) {
			span[0] = Math.min(span[0], ended - nanos);
			span[1] = Math.max(span[1], ended);
		}
	}

	/**
	 * A load's turn on a load slot, from the slot taken to the slot given back: its
	 * warm-up and window, and for a sweep everything between its steps (settling,
	 * draining, probes read while it holds the slot).
	 */
	static void turn(long began, long ended) {
		turn(began, ended, false);
	}

	/**
	 * A load's turn from {@code began} to {@code ended} (nanoTime); {@code beside}: it
	 * went beside another load (more than one load slot, and the machine had the CPU).
	 */
	static void turn(long began, long ended, boolean beside) {
		turns.merge(owner(), ended - began, Long::sum);
		turnSpans.add(new long[] { began, ended });
		if (beside) {
			loadsBeside.incrementAndGet();
		}
	}

	/**
	 * How long the run's load slots were busy (any load's turn under way), and the run's
	 * span from the first class's beginning to the last one's end: with one load at a
	 * time, the suite cannot take less than its busy time.
	 */
	static SlotTime loadSlots() {
		List<long[]> sorted;
		synchronized (turnSpans) {
			sorted = new ArrayList<>(turnSpans);
		}
		long held = sorted.stream().mapToLong((turn) -> turn[1] - turn[0]).sum();
		Duration busy = union(sorted);
		synchronized (span) {
			long run = (span[1] > span[0]) ? span[1] - span[0] : 0;
			return new SlotTime(busy, Duration.ofNanos(run), Duration.ofNanos(held).minus(busy), loadsBeside.get());
		}
	}

	/**
	 * The time covered by at least one of {@code spans} ([began, ended]): overlaps count
	 * once.
	 */
	static Duration union(List<long[]> spans) {
		List<long[]> sorted = new ArrayList<>(spans);
		sorted.sort(java.util.Comparator.comparingLong((long[] turn) -> turn[0]));
		long busy = 0;
		long coveredTo = Long.MIN_VALUE;
		for (long[] turn : sorted) {
			long from = Math.max(turn[0], coveredTo);
			if (turn[1] > from) {
				busy += turn[1] - from;
				coveredTo = turn[1];
			}
		}
		return Duration.ofNanos(busy);
	}

	/** Every class's spans, by category, in seconds, with its wall time. */
	static Map<String, Map<String, Double>> byClass() {
		Map<String, Map<String, Double>> classes = new LinkedHashMap<>();
		spent.keySet().stream().sorted().forEach((name) -> {
			Map<String, Double> seconds = new LinkedHashMap<>();
			Map<Category, Long> nanos = new EnumMap<>(Category.class);
			nanos.putAll(spent.get(name));
			for (Category category : Category.values()) {
				seconds.put(category.name().toLowerCase(Locale.ROOT), nanos.getOrDefault(category, 0L) / 1e9);
			}
			seconds.put("load_turns", turns.getOrDefault(name, 0L) / 1e9);
			seconds.put("wall", walls.getOrDefault(name, 0L) / 1e9);
			classes.put(name, seconds);
		});
		return classes;
	}

	/** The windows each class measured, with their precision. */
	static Map<String, List<Window>> windows() {
		Map<String, List<Window>> copy = new LinkedHashMap<>();
		windows.keySet().stream().sorted().forEach((name) -> copy.put(name, List.copyOf(windows.get(name))));
		return copy;
	}

	/**
	 * How long the run's load slots were busy, and the run's span.
	 *
	 * @param busy the time some load held a slot
	 * @param span from the first scenario class's beginning to the last one's end
	 * @param sideBySide the loads' turns beyond the busy time: what running side by side
	 * saved
	 * @param loadsBeside loads that went beside another
	 */
	record SlotTime(Duration busy, Duration span, Duration sideBySide, int loadsBeside) {

		/** The busy time's share of the span: 0.9 for 90 %. */
		double share() {
			return this.span.isZero() ? 0 : this.busy.toNanos() / (double) this.span.toNanos();
		}

	}

	/**
	 * One measured window.
	 *
	 * @param name the load's name
	 * @param length how long it lasted
	 * @param answers the answers counted in it
	 * @param perSecond the answers of each whole second of it
	 * @param replays what it would have read had it ended earlier
	 * @param ran the load's whole run, warm-up and tail included
	 * @param machineBusy how busy the machine's cores were over the run, 0 to 1 (a load
	 * beside it counts too); empty where not read
	 */
	record Window(String name, Duration length, long answers, double[] perSecond, List<Replay> replays, Duration ran,
			OptionalDouble machineBusy) {

		/**
		 * How close to the whole window's throughput a shorter window must read for the
		 * figure to count as known then: 3 %.
		 */
		static final double WITHIN = 0.03;

		/**
		 * The spread of the answers between its seconds over their mean (the coefficient
		 * of variation); 0 with fewer than two whole seconds. Kept as a figure, not as a
		 * rule: a closed loop's answers come in waves, which make it 0 or large whatever
		 * the throughput's precision.
		 */
		double spread() {
			if (this.perSecond.length < 2) {
				return 0;
			}
			double mean = java.util.Arrays.stream(this.perSecond).average().orElse(0);
			if (mean <= 0) {
				return 0;
			}
			double variance = java.util.Arrays.stream(this.perSecond).map((x) -> (x - mean) * (x - mean)).sum()
					/ (this.perSecond.length - 1);
			return Math.sqrt(variance) / mean;
		}

		/**
		 * How long the window needed for its figure, by its own replays: the shortest
		 * replayed length from which every longer replay read within {@value #WITHIN} of
		 * the whole window's throughput; empty when none did (the whole window was
		 * needed, or it was not replayed).
		 */
		Optional<Duration> knownAfter() {
			List<Replay> byLength = new ArrayList<>(this.replays);
			byLength.sort(java.util.Comparator.comparing(Replay::length));
			Optional<Duration> known = Optional.empty();
			for (Replay replay : byLength) {
				if (Math.abs(replay.throughput() - 1) > WITHIN) {
					known = Optional.empty();
				}
				else if (known.isEmpty()) {
					known = Optional.of(replay.length());
				}
			}
			return known;
		}

	}

}
