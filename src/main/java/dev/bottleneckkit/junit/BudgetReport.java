package dev.bottleneckkit.junit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.RunHook;

/**
 * Where the run's seconds went, for {@code budget.json} and the summary: per scenario
 * class its wall time, the measured windows (what the statistics need) and everything
 * around them, and the windows that were longer than their figure's precision needs.
 */
final class BudgetReport {

	/** The table's columns, as {@link Budget#byClass()} names them. */
	static final List<String> COLUMNS = List.of("wall", "windows", "warm_ups", "tails", "starts", "images", "waiting",
			"probes", "stops", "load_turns");

	/** The columns' headings, in the same order. */
	static final List<String> HEADINGS = List.of("wall", "windows", "warm-ups", "load tails", "starts", "images",
			"waiting", "probes", "stops", "load turns");

	private BudgetReport() {
	}

	/**
	 * {@code budget.json}: classes by category in seconds, and every window's precision.
	 */
	static String json() {
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("schema", "bottleneck-kit/budget/v2");
		root.put("classes", Budget.byClass());
		Budget.SlotTime slots = Budget.loadSlots();
		Map<String, Object> loadSlots = new LinkedHashMap<>();
		loadSlots.put("busy", slots.busy().toMillis() / 1000.0);
		loadSlots.put("span", slots.span().toMillis() / 1000.0);
		loadSlots.put("side_by_side", slots.sideBySide().toMillis() / 1000.0);
		loadSlots.put("loads_beside", slots.loadsBeside());
		root.put("load_slots", loadSlots);
		Map<String, Object> windows = new LinkedHashMap<>();
		Budget.windows().forEach((owner, list) -> windows.put(owner, list.stream().map((window) -> {
			Map<String, Object> each = new LinkedHashMap<>();
			each.put("name", window.name());
			each.put("seconds", window.length().toMillis() / 1000.0);
			each.put("answers", window.answers());
			each.put("spreadBetweenSeconds", window.spread());
			each.put("knownAfterSeconds", window.knownAfter().map((known) -> known.toMillis() / 1000.0).orElse(null));
			each.put("ranSeconds", window.ran().toMillis() / 1000.0);
			each.put("machineBusy", window.machineBusy().isPresent() ? window.machineBusy().getAsDouble() : null);
			each.put("replays", window.replays().stream().map((replay) -> {
				Map<String, Object> shorter = new LinkedHashMap<>();
				shorter.put("latencies", replay.latencies());
				shorter.put("seconds", replay.length().toMillis() / 1000.0);
				shorter.put("throughput", replay.throughput());
				shorter.put("meanLatency", replay.meanLatency());
				return shorter;
			}).toList());
			return each;
		}).toList()));
		root.put("windows", windows);
		return Json.write(root);
	}

	/**
	 * What bounds the run from below: with one load at a time, the loads' turns follow
	 * one another, and the suite takes at least their sum however its classes overlap.
	 */
	static String slotLine(double windows, double warmUps, double tails, double turns) {
		Budget.SlotTime slots = Budget.loadSlots();
		// No turn taken: the loads passed straight through (one class at a time, no
		// schedule), and there is no floor to name.
		if (slots.span().isZero() || slots.busy().isZero()) {
			return "";
		}
		return String.format(Locale.ROOT,
				"%nThe slots' floor of this run is %.0f s: the run cannot take less than its loads' turns.%n",
				slots.busy().toMillis() / 1000.0)
				+ String.format(Locale.ROOT,
						"%nThe load slots were busy %.0f s of the run's %.0f s (%.0f %%): the loads' turns, which follow one"
								+ " another unless the machine has the CPU for two (`bottleneck.loads-at-once`), hold %.0f s of measured windows, %.0f s of warm-ups,"
								+ " %.0f s of load tails (connecting the users, waiting for the answers in flight at a"
								+ " window's end) and %.0f s of the rest of a turn (a sweep's probes and its pauses between"
								+ " steps while it holds the slot). The run takes at least the busy time; shorter turns or"
								+ " loads side by side shorten it, and nothing else much does.%n",
						slots.busy().toMillis() / 1000.0, slots.span().toMillis() / 1000.0, 100 * slots.share(),
						windows, warmUps, tails, Math.max(0, turns - windows - warmUps - tails))
				+ ((slots.loadsBeside() == 0) ? ""
						: String.format(Locale.ROOT,
								"%n%d loads went beside another while the machine's cores were at most %.0f %% busy;"
										+ " turns side by side saved %.0f s of the busy time.%n",
								slots.loadsBeside(), 100 * Phases.BESIDE_BELOW,
								slots.sideBySide().toMillis() / 1000.0));
	}

	/** The summary's table: a row per class and the totals, the overhead's share said. */
	static String markdown() {
		Map<String, Map<String, Double>> classes = Budget.byClass();
		if (classes.isEmpty()) {
			return "";
		}
		StringBuilder md = new StringBuilder("\n## Where the time went\n\n");
		md.append(INTRO.replace("windows, warm-ups and load tails", "*windows*, *warm-ups* and *load tails*"))
			.append("\n\n");
		md.append("| class | ").append(String.join(" | ", HEADINGS)).append(" | overhead |\n");
		md.append("|---".repeat(HEADINGS.size() + 2)).append("|\n");
		double[] totals = new double[COLUMNS.size()];
		classes.forEach((name, seconds) -> {
			StringBuilder row = new StringBuilder("| ").append(name);
			for (int i = 0; i < COLUMNS.size(); i++) {
				double value = seconds.getOrDefault(COLUMNS.get(i), 0.0);
				totals[i] += value;
				row.append(String.format(Locale.ROOT, " | %.0f", value));
			}
			md.append(row).append(" | ").append(overhead(seconds)).append(" |\n");
		});
		md.append("| **all**");
		for (double total : totals) {
			md.append(String.format(Locale.ROOT, " | %.0f", total));
		}
		md.append(" | ").append(overhead(totals[0], totals[1] + totals[2] + totals[3])).append(" |\n");
		md.append(slotLine(totals[1], totals[2], totals[3], totals[COLUMNS.indexOf("load_turns")]));
		replayLines().forEach(md::append);
		return md.toString();
	}

	/**
	 * What the windows' replays say: how many knew their figure from half their length,
	 * and what the scenarios' rule (four mean latencies, 3 s at least) would have read;
	 * the lines that have something to say.
	 */
	static List<String> replayLines() {
		List<Budget.Window> all = Budget.windows().values().stream().flatMap(List::stream).toList();
		return java.util.stream.Stream
			.of(knownLine(all), replayLine(all, 4, java.time.Duration.ofSeconds(3), Budget.Window.WITHIN), cpuLine(all))
			.filter((line) -> !line.isBlank())
			.toList();
	}

	/**
	 * How busy the machine's cores were while the loads ran, in the bands the load slots
	 * care about: what could go side by side by the slots' rule (at most
	 * {@link Phases#BESIDE_BELOW} busy), counted in loads and in seconds of their runs.
	 */
	static String cpuLine(List<Budget.Window> windows) {
		double[] bands = { 0.2, Phases.BESIDE_BELOW, 1.01 };
		long[] loads = new long[bands.length];
		double[] seconds = new double[bands.length];
		for (Budget.Window window : windows) {
			if (window.machineBusy().isEmpty()) {
				continue;
			}
			for (int i = 0; i < bands.length; i++) {
				if (window.machineBusy().getAsDouble() <= bands[i]) {
					loads[i]++;
					seconds[i] += window.ran().toMillis() / 1000.0;
					break;
				}
			}
		}
		if (java.util.Arrays.stream(loads).sum() == 0) {
			return "";
		}
		return String.format(Locale.ROOT,
				"%nThe machine's cores while each load ran (its neighbour's load counted too): at most 20 %% busy"
						+ " for %d loads (%.0f s of runs), 20 to %.0f %% for %d (%.0f s), more for %d (%.0f s)."
						+ " A load that leaves the cores this quiet leaves room for another beside it.%n",
				loads[0], seconds[0], 100 * Phases.BESIDE_BELOW, loads[1], seconds[1], loads[2], seconds[2]);
	}

	/**
	 * How many windows read their figure from half their length or less, by their own
	 * replays.
	 */
	static String knownLine(List<Budget.Window> windows) {
		List<Budget.Window> replayed = windows.stream().filter((window) -> !window.replays().isEmpty()).toList();
		if (replayed.isEmpty()) {
			return "";
		}
		long half = replayed.stream()
			.filter((window) -> window.knownAfter()
				.filter((known) -> known.multipliedBy(2).compareTo(window.length()) <= 0)
				.isPresent())
			.count();
		return String.format(Locale.ROOT,
				"%n%d of %d replayed windows read within %.0f %% of their throughput from half their length or less,"
						+ " and on, by their own replays (`budget.json` has each window's `knownAfterSeconds`).%n",
				half, replayed.size(), 100 * Budget.Window.WITHIN);
	}

	/**
	 * How the windows that could have ended sooner by the rule "{@code latencies} mean
	 * latencies, at least {@code atLeast}" would have read then, by their lives: how many
	 * within {@code within} of the whole window, and the others by name.
	 */
	static String replayLine(List<Budget.Window> windows, int latencies, java.time.Duration atLeast, double within) {
		List<String> moved = new java.util.ArrayList<>();
		int replayed = 0;
		double saved = 0;
		for (Budget.Window window : windows) {
			java.util.Optional<RunHook.Replay> shorter = byRule(window, latencies, atLeast);
			if (shorter.isPresent()) {
				RunHook.Replay replay = shorter.get();
				replayed++;
				saved += (window.length().toMillis() - replay.length().toMillis()) / 1000.0;
				if (Math.abs(replay.throughput() - 1) > within) {
					moved
						.add(String.format(Locale.ROOT, "%s %+.1f %%", window.name(), 100 * (replay.throughput() - 1)));
				}
			}
		}
		if (replayed == 0) {
			return "";
		}
		return String.format(Locale.ROOT,
				"%nReplayed by their requests' lives as if each had ended after %d mean latencies (%d s at least), %d"
						+ " of %d windows that could have ended sooner read within %.0f %% of their whole window's"
						+ " throughput, and %.0f s would have been saved%s%n",
				latencies, atLeast.toSeconds(), replayed - moved.size(), replayed, 100 * within, saved,
				moved.isEmpty() ? "." : "; the others: " + String.join(", ", moved) + ".");
	}

	/**
	 * The replay the rule picks: the window ended after {@code latencies} mean latencies,
	 * or at {@code atLeast} when they passed sooner; empty when the window was no longer.
	 */
	static java.util.Optional<RunHook.Replay> byRule(Budget.Window window, int latencies, java.time.Duration atLeast) {
		java.util.Optional<RunHook.Replay> byLatencies = window.replays()
			.stream()
			.filter((replay) -> replay.latencies() == latencies)
			.findFirst();
		if (byLatencies.isEmpty() || byLatencies.get().length().compareTo(atLeast) >= 0) {
			return byLatencies;
		}
		return window.replays()
			.stream()
			.filter((replay) -> replay.latencies() == 0 && replay.length().equals(atLeast))
			.findFirst();
	}

	/** What the table of seconds per class says of its columns. */
	static final String INTRO = "Seconds per scenario class. The windows, warm-ups and load tails are measurement:"
			+ " the figures are counted over the windows, and the warm-ups and tails keep a cold JIT and censored"
			+ " latencies out of them. The rest is overhead. Classes run side by side, so their walls overlap; a class"
			+ " that measures two services at once waits on two threads, and can wait longer than its wall.";

	/**
	 * A class's overhead from its seconds by column: see
	 * {@link #overhead(double, double)}.
	 */
	static String overhead(Map<String, Double> seconds) {
		return overhead(seconds.getOrDefault("wall", 0.0), seconds.getOrDefault("windows", 0.0)
				+ seconds.getOrDefault("warm_ups", 0.0) + seconds.getOrDefault("tails", 0.0));
	}

	/**
	 * The share of {@code wall} that was not measurement (windows, warm-ups and tails):
	 * "62 %", or "—".
	 */
	static String overhead(double wall, double measured) {
		return (wall > 0) ? String.format(Locale.ROOT, "%.0f %%", 100 * Math.max(0, 1 - measured / wall)) : "—";
	}

}
