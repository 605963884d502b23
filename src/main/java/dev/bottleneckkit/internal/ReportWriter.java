package dev.bottleneckkit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.bottleneckkit.load.LoadResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the scenario report: {@code index.html} (a table per scenario with a throughput timeline per
 * run, the ceiling drawn across it) and {@code summary.md} (the same figures as a Markdown table, for CI
 * job summaries). Rewritten after every scenario class, so it is complete when the run ends and useful
 * when it is cut short.
 */
public final class ReportWriter {

	private static final Logger log = LoggerFactory.getLogger(ReportWriter.class);

	private ReportWriter() {
	}

	/** The directory the report is written to (see {@link ReportDirectory}). */
	public static Path directory() {
		return ReportDirectory.get();
	}

	/**
	 * Writes {@code index.html} and {@code summary.md} for these runs, replacing the last ones; one writer at a
	 * time, since scenario classes end side by side.
	 */
	public static synchronized void writeAll(List<ReportEntry> unordered) {
		if (unordered.isEmpty()) {
			return;
		}
		List<ReportEntry> entries = ordered(unordered);
		Path dir = directory();
		try {
			Files.createDirectories(dir);
			Files.writeString(dir.resolve("index.html"), html(entries));
			Files.writeString(dir.resolve("summary.md"), markdown(entries));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write the scenario report to " + dir, ex);
		}
		log.info("Scenario report: {}", dir.resolve("index.html").toAbsolutePath());
	}

	/** Scenarios in their own order (S1, S2, …, S10, then the kit's K1, …), runs in the order they ran. */
	static List<ReportEntry> ordered(List<ReportEntry> entries) {
		return entries.stream().sorted(java.util.Comparator.comparing(ReportWriter::scenarioOrder)).toList();
	}

	static String markdown(List<ReportEntry> entries) {
		StringBuilder md = new StringBuilder("# bottleneck-kit scenario report\n\n");
		md.append("| scenario | run | load | cap (λ = L / W) | expected | measured | p50 | p99 | errors | evidence | outcome |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (ReportEntry e : entries) {
			LoadResult r = e.result();
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.1f rps | %.1f rps | %s | %s | %d | %s | %s |%n",
					e.scenarioId(), e.caseName(), load(r), e.ceiling().explain(), e.ceiling().throughputFor(r),
					r.throughput(), millis(r, 50), millis(r, 99), r.errorCount(), evidence(e, "; "),
					e.outcome().replace("|", "\\|")));
		}
		return md.toString();
	}

	/** "40 users" for a closed loop, "20 rps offered" for an open one. */
	private static String load(LoadResult r) {
		return r.openLoop() ? String.format(Locale.ROOT, "%.0f rps offered", r.offeredRps()) : r.users() + " users";
	}

	/** A latency percentile of the successes, or "—" when nothing succeeded. */
	private static String millis(LoadResult r, double percentile) {
		return (r.succeeded() == 0) ? "—" : r.latencyAt(percentile).toMillis() + " ms";
	}

	private static int scenarioOrder(ReportEntry e) {
		String digits = e.scenarioId().replaceAll("\\D", "");
		int number = digits.isEmpty() ? 0 : Integer.parseInt(digits);
		return (e.scenarioId().startsWith("S") ? 0 : 1000) + number;
	}

	static String html(List<ReportEntry> entries) {
		Map<String, List<ReportEntry>> byScenario = new LinkedHashMap<>();
		entries.forEach((e) -> byScenario.computeIfAbsent(e.scenarioId() + " — " + e.scenarioTitle(), (k) -> new java.util.ArrayList<>())
			.add(e));
		long passed = entries.stream().filter(ReportEntry::passed).count();
		StringBuilder html = new StringBuilder();
		html.append("""
				<!doctype html><html lang="en"><head><meta charset="utf-8">
				<title>bottleneck-kit scenario report</title>
				<style>
				body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330;max-width:1200px}
				h1{font-size:1.5rem;margin:0 0 .25rem} h2{font-size:1.1rem;margin:2rem 0 .5rem}
				.sub{color:#5b6475;margin-bottom:1.5rem}
				table{border-collapse:collapse;width:100%} th,td{padding:.4rem .6rem;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
				th{font-weight:600;background:#f6f7f9} td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
				.pass{color:#1a7f37;font-weight:600} .fail{color:#cf222e;font-weight:600}
				.cap{color:#5b6475;font-size:.9em} .ev{font-size:.9em} svg{display:block}
				</style></head><body>
				""");
		html.append("<h1>bottleneck-kit scenario report</h1>");
		html.append(String.format(Locale.ROOT, "<div class=\"sub\">%d of %d runs passed. Bars: successful requests per second "
				+ "(grey: warm-up, not measured); dashed line: the throughput Little's law allows.</div>", passed, entries.size()));
		byScenario.forEach((scenario, runs) -> {
			html.append("<h2>").append(escape(scenario)).append("</h2><table><tr><th>run</th><th>load</th>"
					+ "<th>expected</th><th>measured</th><th>p50</th><th>p99</th><th>errors</th><th>evidence</th>"
					+ "<th>timeline</th><th>outcome</th></tr>");
			for (ReportEntry e : runs) {
				LoadResult r = e.result();
				double expected = e.ceiling().throughputFor(r);
				html.append("<tr><td>").append(escape(e.caseName())).append("<div class=\"cap\">cap: ")
					.append(escape(e.ceiling().explain())).append("</div></td>");
				html.append(String.format(Locale.ROOT,
						"<td class=\"num\">%s</td><td class=\"num\">%.1f rps</td><td class=\"num\">%.1f rps</td>"
								+ "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%d</td>",
						escape(load(r)), expected, r.throughput(), millis(r, 50), millis(r, 99), r.errorCount()));
				html.append("<td class=\"ev\">").append(String.join("<br>", evidenceLines(e).stream().map(ReportWriter::escape).toList()))
					.append("</td>");
				html.append("<td>").append(sparkline(r, expected)).append("</td>");
				html.append("<td class=\"").append(e.passed() ? "pass" : "fail").append("\">").append(escape(e.outcome()))
					.append("</td></tr>");
			}
			html.append("</table>");
		});
		html.append("</body></html>\n");
		return html.toString();
	}

	private static String evidence(ReportEntry e, String separator) {
		return String.join(separator, evidenceLines(e));
	}

	private static List<String> evidenceLines(ReportEntry e) {
		List<String> lines = new java.util.ArrayList<>();
		e.evidence().forEach((key, value) -> lines.add(key + ": " + value));
		if (!e.result().errors().isEmpty()) {
			lines.add("errors by kind: " + e.result().errors());
		}
		return lines;
	}

	private static String sparkline(LoadResult r, double expected) {
		int width = 220;
		int height = 44;
		List<LoadResult.Second> seconds = r.timeline();
		if (seconds.isEmpty()) {
			return "";
		}
		double top = Math.max(expected * 1.3,
				seconds.stream().mapToLong(LoadResult.Second::succeeded).max().orElse(1)) ;
		double barWidth = (double) width / seconds.size();
		StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
				"<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", width, height, width, height));
		for (LoadResult.Second s : seconds) {
			double h = s.succeeded() / top * height;
			svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
					+ "<title>second %d: %d ok, %d failed, mean %.0f ms</title></rect>", s.second() * barWidth, height - h,
					Math.max(1, barWidth - 1), h, s.inWindow() ? "#3b6fd8" : "#b8bfcc", s.second(), s.succeeded(), s.failed(),
					s.meanLatencyMs()));
		}
		double y = height - expected / top * height;
		svg.append(String.format(Locale.ROOT,
				"<line x1=\"0\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-dasharray=\"4 3\"/></svg>", width, y, y));
		return svg.toString();
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
