package dev.bottleneckkit.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Results;
import dev.bottleneckkit.internal.SweepRecord;

/**
 * The comparison from a shell, as a CI job runs it:
 * {@code java -cp bottleneck-kit.jar dev.bottleneckkit.baseline.BaselineCommand BASE.json HEAD.json [SUMMARY.md]}
 * prints the comparison in Markdown (and appends it to {@code SUMMARY.md}, e.g.
 * {@code $GITHUB_STEP_SUMMARY}), and exits 1 when anything regressed, 2 on bad input.
 * {@code BaselineCommand --ab RESULTS.json [SUMMARY.md]} does the same for the A/B sweeps
 * of one run, each head measured side by side with its base: their figures with ratio and
 * interval, exit 1 when one regressed.
 */
final class BaselineCommand {

	private BaselineCommand() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length >= 2 && args[0].equals("--ab")) {
			sideBySide(args);
			return;
		}
		if (args.length < 2 || args.length > 3) {
			System.err.println(
					"usage: BaselineCommand BASE.json HEAD.json [SUMMARY.md]: BASE and HEAD are results.json files");
			System.exit(2);
		}
		Comparison comparison;
		try {
			comparison = Baseline.from(Path.of(args[0])).against(Path.of(args[1]));
		}
		catch (RuntimeException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		String markdown = comparison.markdown();
		System.out.print(markdown);
		if (args.length == 3) {
			Files.writeString(Path.of(args[2]), markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		System.exit(comparison.regressed() ? 1 : 0);
	}

	private static void sideBySide(String[] args) throws IOException {
		List<SweepRecord> compared;
		try {
			compared = Results.File.read(Json.parse(Files.readString(Path.of(args[1]))))
				.runs()
				.stream()
				.flatMap((run) -> run.sweep().stream())
				.filter((sweep) -> sweep.comparison().isPresent())
				.toList();
		}
		catch (IOException | RuntimeException ex) {
			System.err.println("cannot read " + args[1] + " (" + ex.getMessage()
					+ "): pass the results.json of a run with -Dbottleneck.against=IMAGE");
			System.exit(2);
			return;
		}
		String markdown = markdown(compared);
		System.out.print(markdown);
		if (args.length == 3) {
			Files.writeString(Path.of(args[2]), markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		System.exit(compared.stream().anyMatch((sweep) -> sweep.comparison().get().regressed()) ? 1 : 0);
	}

	/**
	 * Each A/B sweep's figures as a Markdown table: A, B, B / A, its interval, one
	 * block's spread (the run's noise floor), the verdict.
	 */
	static String markdown(List<SweepRecord> compared) {
		StringBuilder md = new StringBuilder("## The pull request against its base, side by side\n\n");
		if (compared.isEmpty()) {
			return md.append("No A/B sweep in this run: name the base with -Dbottleneck.against=IMAGE.\n").toString();
		}
		md.append("| sweep | figure | A (base) | B (head) | B / A | 95 % interval | a block ± | verdict |\n");
		md.append("|---|---|---|---|---|---|---|---|\n");
		for (SweepRecord sweep : compared) {
			SweepRecord.Comparison comparison = sweep.comparison().get();
			if (comparison.capMoved()) {
				md.append(String.format(Locale.ROOT, "| %s | capped by | %s | %s | | | | **regressed** |%n",
						sweep.name(), comparison.baseCap(), comparison.headCap()));
			}
			for (SweepRecord.Comparison.Figure figure : comparison.figures()) {
				md.append(String.format(Locale.ROOT, "| %s | %s | %.1f %s | %.1f %s | %.3f | %.3f–%.3f | %s | %s |%n",
						sweep.name(), figure.name(), figure.base(), figure.unit(), figure.head(), figure.unit(),
						figure.ratio(), figure.low(), figure.high(),
						Double.isNaN(figure.noise()) ? "—"
								: String.format(Locale.ROOT, "%.1f %%", 100 * figure.noise()),
						figure.change().equals("regressed") ? "**regressed**" : figure.change()));
			}
		}
		return md.toString();
	}

}
