package dev.bottleneckkit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.internal.run.PairRun;

/**
 * How often the A/B guard is right, for {@code bench/ab-calibration.sh}: it runs guards
 * of one route each, kind after kind in rounds (an A/A, then each regression, then the
 * next round), each from two fresh containers, and appends each guard's figures to a
 * results file as it ends, so that a calibration can span sessions: a kind that has its N
 * rows of this code in the file is not run again. {@code bench/ab-calibration-table.py}
 * makes the table from the file.
 * <p>
 * Arguments: the results file, N, then one kind each:
 * {@code label|base image|head image|route|users at most}, and optionally {@code |pairs}:
 * the pairs of JVMs its guards take where the CPU may cap the route
 * ({@code -Dbottleneck.ab.pairs}), so that two settings of one code are measured in the
 * same rounds.
 */
public final class ABCalibration {

	/** The results file's columns, tab-separated. */
	static final String HEADER = "kind\trun\tverdict\tcap_moved\tratio\tlow\thigh\tnoise\tblocks\tseconds\tseed"
			+ "\tbase_cap\thead_cap\tred_figures\tknee_ratio\tknee_low\tknee_high\tp99_ratio\tp99_low\tp99_high\tcommit"
			+ "\tkit";

	/**
	 * What the guards measure with: the library's and the lab's code, as
	 * {@code bench/ab-calibration.sh} names it. Rows of other code are other guards: each
	 * code counts its own rounds.
	 */
	private static final String KIT = System.getProperty("calibration.kit", "-");

	/** The property that sets a guard's pairs of JVMs. */
	private static final String PAIRS = "bottleneck.ab.pairs";

	private ABCalibration() {
	}

	public static void main(String[] args) throws IOException {
		Path results = Path.of(args[0]);
		int n = Integer.parseInt(args[1]);
		List<Kind> kinds = new ArrayList<>();
		for (int i = 2; i < args.length; i++) {
			kinds.add(Kind.parse(args[i]));
		}
		if (!Files.exists(results)) {
			Files.writeString(results, HEADER + System.lineSeparator(), StandardCharsets.UTF_8);
		}
		for (int round = 1; round <= n; round++) {
			for (Kind kind : kinds) {
				long done = Files.readAllLines(results, StandardCharsets.UTF_8)
					.stream()
					.filter((line) -> line.startsWith(kind.label() + "\t") && line.endsWith("\t" + KIT))
					.count();
				if (done >= round) {
					continue;
				}
				String row = guard(kind, (int) done + 1);
				Files.writeString(results, row + System.lineSeparator(), StandardCharsets.UTF_8,
						StandardOpenOption.APPEND);
				System.out.println("[calibration] " + row.replace('\t', ' '));
			}
		}
	}

	private static String guard(Kind kind, int run) {
		long started = System.nanoTime();
		String pairsBefore = System.getProperty(PAIRS);
		if (kind.pairs() != null) {
			System.setProperty(PAIRS, kind.pairs());
		}
		try (ServiceContainer head = new ServiceContainer(kind.head()).withName("calibration-head")) {
			head.start();
			SweepResult sweep = Sweep.of(head, kind.route())
				.named(kind.label() + " #" + run)
				.upToUsers(kind.maxUsers())
				.against(kind.base())
				.within(kind.budget())
				.run();
			ABComparison comparison = sweep.comparison().orElseThrow();
			ABComparison.Figure ceiling = comparison.figure("ceiling").orElseThrow();
			ABComparison.Figure knee = comparison.figure("throughput at the knee").orElseThrow();
			ABComparison.Figure p99 = comparison.figure("p99 at the knee").orElseThrow();
			String red = comparison.figures()
				.stream()
				.filter((figure) -> figure.change(comparison.bound()) == ABComparison.Change.REGRESSED)
				.map(ABComparison.Figure::name)
				.collect(Collectors.joining(","));
			String verdict = comparison.regressed() ? "regressed" : !comparison.resolved() ? "unresolved"
					: (ceiling.change(comparison.bound()) == ABComparison.Change.IMPROVED) ? "improved" : "no-change";
			return String.join("\t", kind.label(), Integer.toString(run), verdict,
					Boolean.toString(comparison.capMoved()), number(ceiling.ratio()), number(ceiling.low()),
					number(ceiling.high()), number(ceiling.noise()), Integer.toString(comparison.blocks()),
					Long.toString((System.nanoTime() - started) / 1_000_000_000), Long.toString(comparison.seed()),
					comparison.baseCap(), comparison.headCap(), red.isEmpty() ? "-" : red, number(knee.ratio()),
					number(knee.low()), number(knee.high()), number(p99.ratio()), number(p99.low()), number(p99.high()),
					System.getProperty("calibration.commit", "-"), KIT);
		}
		finally {
			if (pairsBefore == null) {
				System.clearProperty(PAIRS);
			}
			else {
				System.setProperty(PAIRS, pairsBefore);
			}
		}
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%.4f", value);
	}

	private record Kind(String label, String base, String head, String route, int maxUsers, String pairs,
			Duration budget) {

		static Kind parse(String spec) {
			String[] parts = spec.split("\\|");
			if (parts.length < 5 || parts.length > 7) {
				throw new IllegalArgumentException(
						"a kind is label|base image|head image|route|users at most[|pairs or -[|budget in s]], was "
								+ spec);
			}
			return new Kind(parts[0], parts[1], parts[2], parts[3], Integer.parseInt(parts[4]),
					(parts.length >= 6 && !parts[5].equals("-")) ? parts[5] : null, (parts.length == 7)
							? Duration.ofSeconds(Long.parseLong(parts[6])) : PairRun.Guard.DEFAULT.budget());
		}

	}

}
