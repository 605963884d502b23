package dev.bottleneckkit.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.ReportDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the scenario report: {@code index.html} (a table per scenario with a throughput
 * timeline per run, the ceiling drawn across it) and {@code summary.md} (the same figures
 * as a Markdown table, for CI job summaries). Rewritten after every scenario class, so it
 * is complete when the run ends and useful when it is cut short.
 */
final class ReportWriter {

	private static final Logger log = LoggerFactory.getLogger(ReportWriter.class);

	private ReportWriter() {
	}

	/** The directory the report is written to (see {@link ReportDirectory}). */
	static Path directory() {
		return ReportDirectory.get();
	}

	/**
	 * Writes {@code index.html}, {@code summary.md} and {@code results.json} for these
	 * runs, replacing the last ones; one writer at a time, since scenario classes end
	 * side by side.
	 */
	static synchronized void writeAll(List<ReportEntry> unordered) {
		if (unordered.isEmpty()) {
			return;
		}
		List<ReportEntry> entries = ordered(unordered);
		Path dir = directory();
		try {
			Files.createDirectories(dir);
			Files.writeString(dir.resolve("results.json"), ResultsJson.of(entries));
			Comparison comparison = Baseline.configured()
				.map((baseline) -> baseline.against(dir.resolve("results.json")))
				.orElse(null);
			Files.writeString(dir.resolve("index.html"), html(entries, comparison));
			Files.writeString(dir.resolve("summary.md"), markdown(entries)
					+ ((comparison != null) ? "\n" + comparison.markdown() : "") + BudgetReport.markdown());
			if (Budget.recorded()) {
				Files.writeString(dir.resolve("budget.json"), BudgetReport.json());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write the scenario report to " + dir, ex);
		}
		catch (RuntimeException ex) {
			// The scenarios' own outcome stands; the report says it could not be drawn,
			// in the log.
			log.error("The scenario report could not be written to {}: {}", dir, ex.toString(), ex);
			return;
		}
		log.info("Scenario report: {}", dir.resolve("index.html").toAbsolutePath());
	}

	/**
	 * Scenarios in their own order (S1, S2, …, S10, then the kit's K1, …), runs in the
	 * order they ran.
	 */
	static String html(List<ReportEntry> entries) {
		return HtmlReport.html(entries);
	}

	static String html(List<ReportEntry> entries, Comparison comparison) {
		return HtmlReport.html(entries, comparison);
	}

	static String markdown(List<ReportEntry> entries) {
		return MarkdownSummary.markdown(entries);
	}

	static List<ReportEntry> ordered(List<ReportEntry> entries) {
		return entries.stream().sorted(java.util.Comparator.comparing(ReportWriter::scenarioOrder)).toList();
	}

	static int scenarioOrder(ReportEntry e) {
		String digits = e.scenarioId().replaceAll("\\D", "");
		int number = digits.isEmpty() ? 0 : Integer.parseInt(digits);
		return (e.scenarioId().startsWith("S") ? 0 : 1000) + number;
	}

}
