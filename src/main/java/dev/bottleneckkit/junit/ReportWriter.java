package dev.bottleneckkit.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.internal.ReportDirectory;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
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
			Files.writeString(dir.resolve("summary.md"),
					markdown(entries) + ((comparison != null) ? "\n" + comparison.markdown() : ""));
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
	static List<ReportEntry> ordered(List<ReportEntry> entries) {
		return entries.stream().sorted(java.util.Comparator.comparing(ReportWriter::scenarioOrder)).toList();
	}

	static String markdown(List<ReportEntry> entries) {
		StringBuilder md = new StringBuilder("# bottleneck-kit scenario report\n\n");
		md.append(
				"| scenario | run | load | cap (λ = L / W) | expected | measured | p50 | p99 | errors | evidence | outcome |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (ReportEntry e : entries) {
			LoadResult r = e.result();
			if (e.sweep() != null) {
				SweepResult sweep = e.sweep();
				md.append(String.format(Locale.ROOT,
						"| %s | %s | sweep, %s users | %s | %s | %s | — | — | %d | %s | %s |%n", e.scenarioId(),
						md(e.caseName()), usersRange(sweep), md(sweep.verdict().resource().description()),
						sweep.verdict().hasModel() ? rps(sweep.verdict().modelRps()) : "—",
						sweep.saturated() ? rps(sweep.ceiling()) : "—", r.errorCount(),
						md("verdict: " + sweep.verdict().line()), md(e.outcome())));
				continue;
			}
			if (e.failureMode() != null) {
				FailureMode mode = e.failureMode();
				md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |%n",
						e.scenarioId(), md(e.caseName()), load(r), md("fails by design: " + mode.explain()),
						md(expectedFailures(mode, r)), md(measuredFailures(r)), millis(r, 50), millis(r, 99),
						r.errorCount(), md(evidence(e, "; ")), md(e.outcome())));
				continue;
			}
			md.append(String.format(Locale.ROOT,
					"| %s | %s | %s | %s | %.1f rps | %.1f rps | %s | %s | %d | %s | %s |%n", e.scenarioId(),
					md(e.caseName()), load(r), e.ceiling().explain(), e.ceiling().throughputFor(r), r.throughput(),
					millis(r, 50), millis(r, 99), r.errorCount(), md(evidence(e, "; ")), md(e.outcome())));
		}
		return md.toString();
	}

	private static String md(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	/** "40 users" for a closed loop, "20 rps offered" for an open one. */
	private static String load(LoadResult r) {
		return r.openLoop() ? String.format(Locale.ROOT, "%.0f rps offered", r.offeredRps()) : r.users() + " users";
	}

	/** A latency percentile of the successes, or "—" when nothing succeeded. */
	private static String millis(LoadResult r, double percentile) {
		return (r.succeeded() == 0) ? "—" : r.latencyAt(percentile).toMillis() + " ms";
	}

	private static String rps(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

	private static String usersRange(SweepResult sweep) {
		return sweep.steps().get(0).users() + "→" + sweep.steps().get(sweep.steps().size() - 1).users();
	}

	private static int scenarioOrder(ReportEntry e) {
		String digits = e.scenarioId().replaceAll("\\D", "");
		int number = digits.isEmpty() ? 0 : Integer.parseInt(digits);
		return (e.scenarioId().startsWith("S") ? 0 : 1000) + number;
	}

	private static final String STYLE = """
			body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f4f5f8}
			main{max-width:1180px;margin:0 auto;padding:1.5rem 1.5rem 3rem}
			h1{font-size:1.6rem;margin:0 0 .3rem} h2{font-size:1.15rem;margin:2.2rem 0 .8rem}
			.sub{color:#5b6475;margin-bottom:.8rem} .legend{color:#5b6475;font-size:.88em;margin-bottom:1rem}
			nav{display:flex;flex-wrap:wrap;gap:.4rem;margin:.6rem 0 0}
			nav a{text-decoration:none;font-size:.85em;padding:.2rem .55rem;border-radius:1rem;background:#fff;border:1px solid #d8dce4;color:#1d2330}
			nav a.fail{border-color:#cf222e;color:#cf222e} nav a.pass{border-color:#9fd5ad}
			article{background:#fff;border:1px solid #e1e4ea;border-radius:8px;padding:.9rem 1.1rem;margin:0 0 .9rem;box-shadow:0 1px 2px rgba(0,0,0,.03)}
			article.fail{border-left:4px solid #cf222e} article.pass{border-left:4px solid #2da44e}
			.head{display:flex;justify-content:space-between;align-items:baseline;gap:1rem}
			.case{font-weight:600;font-size:1.02em} .badge{font-size:.8em;font-weight:600;padding:.1rem .5rem;border-radius:1rem;white-space:nowrap}
			.badge.pass{background:#dafbe1;color:#1a7f37} .badge.fail{background:#ffebe9;color:#cf222e}
			.failmsg{color:#cf222e;font-size:.9em;margin:.3rem 0 0}
			.kpis{display:flex;flex-wrap:wrap;gap:1.6rem;margin:.6rem 0 .3rem}
			.kpis div{font-variant-numeric:tabular-nums;font-size:1.05em} .kpis label{display:block;font-size:.72em;color:#5b6475;text-transform:uppercase;letter-spacing:.03em}
			.kpis small{font-size:.78em;color:#5b6475}
			.cap{color:#5b6475;font-size:.9em;margin-bottom:.5rem}
			.verdict{font-size:1.02em;margin:.5rem 0 .6rem;padding:.5rem .7rem;background:#f6f8fa;border-radius:6px}
			.body{display:grid;grid-template-columns:minmax(260px,1fr) 2fr;gap:1.2rem;align-items:start}
			dl{margin:0;font-size:.88em} dt{color:#5b6475} dd{margin:0 0 .35rem;word-break:break-word}
			.charts{display:flex;flex-wrap:wrap;gap:.8rem} figure{margin:0} figcaption{font-size:.75em;color:#5b6475;margin-bottom:.15rem}
			table.steps{border-collapse:collapse;font-size:.85em;font-variant-numeric:tabular-nums}
			table.steps td,table.steps th{padding:.2rem .6rem;border-bottom:1px solid #eceef2;text-align:right} table.steps th{color:#5b6475;font-weight:500}
			table.steps tr.knee td{background:#fff8c5}
			svg text{font:10px system-ui,sans-serif;fill:#5b6475}
			p.still{flex-basis:100%;margin:.2rem 0 0;font-size:.75em;color:#5b6475}
			section.baseline table td,section.baseline table th{text-align:left} tr.regressed td,b.regressed{color:#cf222e;font-weight:600}
			""";

	static String html(List<ReportEntry> entries) {
		return html(entries, null);
	}

	/** Before / after against a baseline, side by side, what regressed in red. */
	static String baselineSection(Comparison comparison) {
		StringBuilder html = new StringBuilder("<section class=\"baseline\"><h2>Compared with the baseline</h2><p>")
			.append(comparison.regressed()
					? "<b class=\"regressed\">" + comparison.regressions().size() + " regression(s)</b> against "
					: "No regression against ")
			.append(escape(String.valueOf(comparison.baseline())))
			.append("</p><table class=\"steps\"><tr><th>scenario</th><th>run</th><th>figure</th><th>before</th>"
					+ "<th>after</th><th>change</th><th>allowed</th></tr>");
		for (Comparison.Row row : comparison.rows()) {
			html.append(row.regression() ? "<tr class=\"regressed\">" : "<tr>");
			for (String cell : List.of(row.scenario(), row.run(), row.figure(), row.before(), row.after(), row.change(),
					row.allowed())) {
				html.append("<td>").append(escape(cell)).append("</td>");
			}
			html.append("</tr>");
		}
		return html.append("</table></section>").toString();
	}

	static String html(List<ReportEntry> entries, Comparison comparison) {
		Map<String, List<ReportEntry>> byScenario = new LinkedHashMap<>();
		entries.forEach((e) -> byScenario.computeIfAbsent(e.scenarioId(), (k) -> new java.util.ArrayList<>()).add(e));
		long passed = entries.stream().filter(ReportEntry::passed).count();
		StringBuilder html = new StringBuilder();
		html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
				+ "content=\"width=device-width,initial-scale=1\"><title>bottleneck-kit scenario report</title><style>")
			.append(STYLE)
			.append("</style></head><body><main>");
		html.append("<h1>bottleneck-kit scenario report</h1>");
		html.append(String.format(Locale.ROOT, "<div class=\"sub\"><b>%d of %d runs passed</b>, %d scenarios.</div>",
				passed, entries.size(), byScenario.size()));
		html.append(
				"<div class=\"legend\">Throughput charts: successful requests per second (grey: warm-up, not measured);"
						+ " red dashed line: what Little's law allows (λ = L / W). Gauge charts: each gauge the probes sampled during"
						+ " the run. Sweep charts: throughput (bars) and mean latency (orange) against users, the knee and the"
						+ " model.</div>");
		if (comparison != null) {
			html.append(baselineSection(comparison));
		}
		html.append("<nav>");
		byScenario.forEach((id, runs) -> {
			boolean allPassed = runs.stream().allMatch(ReportEntry::passed);
			html.append("<a href=\"#")
				.append(escape(id))
				.append("\" class=\"")
				.append(allPassed ? "pass" : "fail")
				.append("\">")
				.append(escape(id))
				.append(allPassed ? " ✓" : " ✗")
				.append("</a>");
		});
		html.append("</nav>");
		byScenario.forEach((id, runs) -> {
			html.append("<h2 id=\"")
				.append(escape(id))
				.append("\">")
				.append(escape(id + " — " + runs.get(0).scenarioTitle()))
				.append("</h2>");
			for (ReportEntry e : runs) {
				html.append((e.sweep() != null) ? sweepCard(e) : runCard(e));
			}
		});
		html.append("</main></body></html>\n");
		return html.toString();
	}

	private static String head(ReportEntry e) {
		String outcome = e.outcome();
		boolean failed = outcome.startsWith("failed");
		StringBuilder head = new StringBuilder("<div class=\"head\"><span class=\"case\">").append(escape(e.caseName()))
			.append("</span><span class=\"badge ")
			.append(e.passed() ? "pass" : "fail")
			.append("\">")
			.append(e.passed() ? "passed" : failed ? "failed" : escape(outcome))
			.append("</span></div>");
		if (failed) {
			head.append("<div class=\"failmsg\">")
				.append(escape(outcome.substring("failed: ".length())))
				.append("</div>");
		}
		return head.toString();
	}

	/** "4.0 failures/s of http-504 read-timeout, each after 500 ms" */
	static String expectedFailures(FailureMode mode, LoadResult r) {
		double rate = mode.failuresPerSecondFor(r);
		String when = mode.timeToFail().isZero() ? "" : ", each after " + mode.timeToFail().toMillis() + " ms";
		return (Double.isNaN(rate) ? "every request fails" : String.format(Locale.ROOT, "%.1f failures/s", rate))
				+ " of " + mode.kind() + when;
	}

	/**
	 * "3.9 failures/s: 47 × http-504 read-timeout, time to fail p50 503 ms; 0 answered"
	 */
	static String measuredFailures(LoadResult r) {
		if (r.errorCount() == 0) {
			return String.format(Locale.ROOT, "no failures; %.1f rps answered", r.throughput());
		}
		String kinds = r.errors()
			.entrySet()
			.stream()
			.map((kind) -> kind.getValue() + " × " + kind.getKey())
			.collect(java.util.stream.Collectors.joining(", "));
		return String.format(Locale.ROOT, "%.1f failures/s: %s, time to fail p50 %d ms; %d answered",
				r.errorsPerSecond(), kinds, r.failureLatencyAt(50).toMillis(), r.succeeded());
	}

	private static String failureCard(ReportEntry e) {
		LoadResult r = e.result();
		FailureMode mode = e.failureMode();
		double rate = mode.failuresPerSecondFor(r);
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"kpis\">")
			.append(kpi("load", load(r)))
			.append(kpi("expected",
					Double.isNaN(rate) ? "every request fails" : String.format(Locale.ROOT, "%.1f failures/s", rate)))
			.append(kpi("measured", String.format(Locale.ROOT, "%.1f failures/s", r.errorsPerSecond())))
			.append(kpi("time to fail p50", (r.errorCount() == 0) ? "—" : r.failureLatencyAt(50).toMillis() + " ms"))
			.append(kpi("answered", Long.toString(r.succeeded())))
			.append(kpi("generator busy",
					Math.round(r.generatorBusy() * 100) + " %" + (r.generatorSaturated() ? " ⚠" : "")))
			.append("</div>");
		card.append("<div class=\"cap\">fails by design: ").append(escape(mode.explain())).append("</div>");
		card.append("<div class=\"body\"><dl>");
		card.append("<dt>failures</dt><dd>").append(escape(measuredFailures(r))).append("</dd>");
		evidenceTerms(card, e);
		card.append("</dl><div class=\"charts\">");
		card.append("<figure><figcaption>failed requests per second</figcaption>")
			.append(perSecondChart(r, rate, true))
			.append("</figure>");
		gaugeFigures(card, e.gauges(), r.warmUp().plus(r.window()).plusSeconds(2));
		card.append("</div></div></article>");
		return card.toString();
	}

	/**
	 * The entry's evidence as terms of a definition list: "downstream peak in-flight" —
	 * 5.
	 */
	private static void evidenceTerms(StringBuilder card, ReportEntry e) {
		evidenceLines(e).forEach((line) -> {
			int colon = line.indexOf(": ");
			card.append("<dt>")
				.append(escape(line.substring(0, Math.max(0, colon))))
				.append("</dt><dd>")
				.append(escape(line.substring(colon + 2)))
				.append("</dd>");
		});
	}

	private static String runCard(ReportEntry e) {
		if (e.failureMode() != null) {
			return failureCard(e);
		}
		LoadResult r = e.result();
		double expected = e.ceiling().throughputFor(r);
		double off = (r.throughput() - expected) / expected;
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"kpis\">")
			.append(kpi("load", load(r)))
			.append(kpi("model", rps(expected)))
			.append(kpi("measured",
					rps(r.throughput()) + String.format(Locale.ROOT, " <small>%+.0f %%</small>", off * 100)))
			.append(kpi("p50 / p99",
					(r.succeeded() == 0) ? "—"
							: r.latencyAt(50).toMillis() + " / " + r.latencyAt(99).toMillis() + " ms"))
			.append(kpi("errors", Long.toString(r.errorCount())))
			.append(kpi("generator busy",
					Math.round(r.generatorBusy() * 100) + " %" + (r.generatorSaturated() ? " ⚠" : "")))
			.append("</div>");
		card.append("<div class=\"cap\">cap: ").append(escape(e.ceiling().explain())).append("</div>");
		card.append("<div class=\"body\"><dl>");
		evidenceTerms(card, e);
		if (r.generatorSaturated()) {
			card.append(
					"<dt>load generator</dt><dd>saturated: the figures measure the generator, not the service</dd>");
		}
		card.append("</dl><div class=\"charts\">");
		card.append("<figure><figcaption>successful requests per second</figcaption>")
			.append(throughputChart(r, expected))
			.append("</figure>");
		gaugeFigures(card, e.gauges(), r.warmUp().plus(r.window()).plusSeconds(2));
		card.append("</div></div></article>");
		return card.toString();
	}

	/**
	 * A chart for every gauge that moved, over the last {@code span} of its samples (the
	 * load's time: sampling begins before a load may wait for its turn); gauges that
	 * never moved (a configured maximum) or that the service does not apply (Tomcat
	 * reports -1 busy threads on virtual threads) in one line of numbers instead.
	 */
	private static void gaugeFigures(StringBuilder card, Map<String, GaugeTimeline> gauges, Duration span) {
		List<String> still = new ArrayList<>();
		gauges.forEach((whose, timeline) -> timeline.series().forEach((label, samples) -> {
			String name = whose + " · " + label;
			double max = samples.stream().mapToDouble(GaugeTimeline.Sample::value).max().orElse(0);
			double min = samples.stream().mapToDouble(GaugeTimeline.Sample::value).min().orElse(0);
			if (samples.isEmpty()) {
				return;
			}
			if (max < 0) {
				still.add(name + " n/a");
			}
			else if (max == min) {
				still.add(name + " " + number(max));
			}
			else {
				card.append("<figure><figcaption>")
					.append(escape(name))
					.append("</figcaption>")
					.append(gaugeChart(lastOf(samples, span)))
					.append("</figure>");
			}
		}));
		if (!still.isEmpty()) {
			card.append("<p class=\"still\">unchanged during the run: ")
				.append(escape(String.join(" · ", still)))
				.append("</p>");
		}
	}

	/**
	 * The samples of the last {@code span}, their times counted from the first of them.
	 */
	private static List<GaugeTimeline.Sample> lastOf(List<GaugeTimeline.Sample> samples, Duration span) {
		if (span == null || samples.isEmpty()) {
			return samples;
		}
		Duration end = samples.get(samples.size() - 1).at();
		Duration from = end.minus(span);
		List<GaugeTimeline.Sample> kept = samples.stream()
			.filter((sample) -> sample.at().compareTo(from) >= 0)
			.toList();
		if (kept.isEmpty()) {
			return samples;
		}
		Duration first = kept.get(0).at();
		return kept.stream()
			.map((sample) -> new GaugeTimeline.Sample(sample.at().minus(first), sample.value()))
			.toList();
	}

	private static String sweepCard(ReportEntry e) {
		SweepResult sweep = e.sweep();
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"verdict\"><b>")
			.append(escape(sweep.verdict().resource().description()))
			.append("</b> — ")
			.append(escape(sweep.verdict().line()))
			.append("</div>");
		card.append("<div class=\"kpis\">")
			.append(kpi("steps", sweep.steps().size() + " (" + usersRange(sweep) + " users)"))
			.append(kpi("W₁ (one user)", sweep.oneUserLatency().toMillis() + " ms"))
			.append(kpi("ceiling", sweep.saturated() ? rps(sweep.ceiling()) : "none"))
			.append(kpi("model", sweep.verdict().hasModel() ? rps(sweep.verdict().modelRps()) : "—"))
			.append(kpi("knee", sweep.knee().map((k) -> k.users() + " users").orElse("—")))
			.append(kpi("took", sweep.took().toSeconds() + " s"))
			.append("</div><div class=\"body\"><div><table class=\"steps\"><tr><th>users</th><th>rps</th><th>mean ms</th>"
					+ "<th>p50 ms</th><th>errors</th><th>cores</th></tr>");
		sweep.steps()
			.forEach((step) -> card.append(String.format(Locale.ROOT,
					"<tr%s><td>%d</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td></tr>",
					sweep.knee().filter((k) -> k == step).isPresent() ? " class=\"knee\"" : "", step.users(),
					step.throughput(), step.meanLatency().toMillis(), step.result().median().toMillis(),
					step.result().errorCount(), Double.isNaN(step.serviceCores()) ? "—"
							: String.format(Locale.ROOT, "%.2f", step.serviceCores()))));
		card.append("</table><dl style=\"margin-top:.6rem\">");
		sweep.verdict()
			.evidence()
			.forEach((key, value) -> card.append("<dt>")
				.append(escape(key))
				.append("</dt><dd>")
				.append(escape(value))
				.append("</dd>"));
		card.append(
				"</dl></div><div class=\"charts\"><figure><figcaption>throughput and mean latency against users</figcaption>")
			.append(sweepChart(sweep))
			.append("</figure>");
		gaugeFigures(card, e.gauges(), null);
		card.append("</div></div></article>");
		return card.toString();
	}

	private static String kpi(String label, String value) {
		return "<div><label>" + escape(label) + "</label>" + value + "</div>";
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

	/**
	 * Bars of successful requests per second, the warm-up grey, the model's rate dashed.
	 */
	private static String throughputChart(LoadResult r, double expected) {
		return perSecondChart(r, expected, false);
	}

	/**
	 * Bars per second of successes, or of failures ({@code failures}), with the model's
	 * rate as a dashed line.
	 */
	private static String perSecondChart(LoadResult r, double expected, boolean failures) {
		int width = 300;
		int height = 90;
		int left = 30;
		int bottom = 14;
		List<LoadResult.Second> seconds = r.timeline();
		if (seconds.isEmpty()) {
			return "";
		}
		java.util.function.ToLongFunction<LoadResult.Second> count = failures ? LoadResult.Second::failed
				: LoadResult.Second::succeeded;
		double top = niceTop(Math.max(Double.isNaN(expected) ? 0 : expected * 1.2,
				seconds.stream().mapToLong(count).max().orElse(1)));
		double plotH = height - bottom - 4;
		double barWidth = (double) (width - left) / seconds.size();
		StringBuilder svg = new StringBuilder(svgOpen(width, height));
		axis(svg, left, width, height, bottom, top, "");
		for (LoadResult.Second s : seconds) {
			double h = count.applyAsLong(s) / top * plotH;
			svg.append(String.format(Locale.ROOT,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
							+ "<title>second %d: %d ok, %d failed, mean %.0f ms</title></rect>",
					left + s.second() * barWidth, height - bottom - h, Math.max(1, barWidth - 1), h,
					!s.inWindow() ? "#c3c9d4" : failures ? "#d8823b" : "#3b6fd8", s.second(), s.succeeded(), s.failed(),
					s.meanLatencyMs()));
		}
		if (!Double.isNaN(expected)) {
			double y = height - bottom - expected / top * plotH;
			svg.append(String.format(Locale.ROOT,
					"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" "
							+ "stroke-dasharray=\"4 3\"><title>model: %.1f %s</title></line>",
					left, width, y, y, expected, failures ? "failures/s" : "rps"));
		}
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d s</text>", width,
				height - 2, seconds.size()));
		return svg.append("</svg>").toString();
	}

	/** A gauge's samples over time, its maximum labelled. */
	private static String gaugeChart(List<GaugeTimeline.Sample> samples) {
		int width = 200;
		int height = 70;
		int left = 30;
		int bottom = 14;
		if (samples.isEmpty()) {
			return "";
		}
		double max = samples.stream().mapToDouble(GaugeTimeline.Sample::value).max().orElse(0);
		double min = Math.min(0, samples.stream().mapToDouble(GaugeTimeline.Sample::value).min().orElse(0));
		double top = niceTop(Math.max(max, 1));
		double span = samples.get(samples.size() - 1).at().toMillis() / 1000.0;
		double plotH = height - bottom - 4;
		StringBuilder svg = new StringBuilder(svgOpen(width, height));
		axis(svg, left, width, height, bottom, top, "");
		StringBuilder points = new StringBuilder();
		for (GaugeTimeline.Sample sample : samples) {
			double x = left + ((span <= 0) ? 0 : sample.at().toMillis() / 1000.0 / span * (width - left - 4));
			double y = height - bottom - (sample.value() - min) / (top - min) * plotH;
			points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
		}
		svg.append("<polyline fill=\"none\" stroke=\"#8250df\" stroke-width=\"1.6\" points=\"")
			.append(points)
			.append("\"/>");
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">max %s, %.0f s</text>",
				width, height - 2, number(max), span));
		return svg.append("</svg>").toString();
	}

	/**
	 * Throughput bars and mean latency against users, the model's rate dashed, the knee
	 * marked.
	 */
	private static String sweepChart(SweepResult sweep) {
		int width = 520;
		int height = 220;
		int left = 44;
		int right = 48;
		int bottom = 28;
		List<Step> steps = sweep.steps();
		double model = sweep.verdict().hasModel() ? sweep.verdict().modelRps() : Double.NaN;
		double top = niceTop(Math.max(sweep.ceiling(), Double.isNaN(model) ? 0 : model) * 1.15);
		double latencyTop = niceTop(
				steps.stream().mapToDouble((s) -> s.meanLatency().toMillis()).max().orElse(1) * 1.1);
		double plotW = width - left - right;
		double plotH = height - bottom - 8;
		double slot = plotW / steps.size();
		StringBuilder svg = new StringBuilder(svgOpen(width, height));
		axis(svg, left, width - right, height, bottom, top, " rps");
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"12\" text-anchor=\"start\" style=\"fill:#bc4c00\">%s ms</text>", width - right + 4,
				number(latencyTop)));
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"%d\" text-anchor=\"start\" style=\"fill:#bc4c00\">0</text>", width - right + 4,
				height - bottom));
		StringBuilder latency = new StringBuilder();
		Step knee = sweep.knee().orElse(null);
		for (int i = 0; i < steps.size(); i++) {
			Step step = steps.get(i);
			double x = left + i * slot;
			double h = step.throughput() / top * plotH;
			svg.append(String.format(Locale.ROOT,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
							+ "<title>%d users: %.1f rps, mean %d ms</title></rect>",
					x + slot * 0.18, height - bottom - h, slot * 0.64, h, (step == knee) ? "#1f4fb5" : "#3b6fd8",
					step.users(), step.throughput(), step.meanLatency().toMillis()));
			svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
					x + slot / 2, height - bottom + 12, step.users()));
			double ly = height - bottom - step.meanLatency().toMillis() / latencyTop * plotH;
			latency.append(String.format(Locale.ROOT, "%.1f,%.1f ", x + slot / 2, ly));
			svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"#bc4c00\"/>",
					x + slot / 2, ly));
			if (step == knee) {
				svg.append(String
					.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"6\" y2=\"%d\" stroke=\"#1d2330\" "
							+ "stroke-dasharray=\"2 3\"/><text x=\"%.1f\" y=\"14\" text-anchor=\"middle\" style=\"fill:#1d2330\">knee</text>",
							x + slot / 2, x + slot / 2, height - bottom, x + slot / 2));
			}
		}
		svg.append("<polyline fill=\"none\" stroke=\"#bc4c00\" stroke-width=\"1.8\" points=\"")
			.append(latency)
			.append("\"/>");
		if (!Double.isNaN(model)) {
			double y = height - bottom - model / top * plotH;
			svg.append(String
				.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" "
						+ "stroke-dasharray=\"5 3\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"start\" style=\"fill:#cf222e\">model"
						+ " %.1f</text>", left, width - right, y, y, left + 4, y - 3, model));
		}
		svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">users</text>",
				left + plotW / 2, height - 2));
		return svg.append("</svg>").toString();
	}

	private static String svgOpen(int width, int height) {
		return String.format(Locale.ROOT, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", width,
				height, width, height);
	}

	/** The y axis: a baseline, the top value and zero. */
	private static void axis(StringBuilder svg, int left, int right, int height, int bottom, double top, String unit) {
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#d0d4dc\"/>",
				left, right, height - bottom, height - bottom));
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"6\" y2=\"6\" stroke=\"#eef0f4\"/>", left,
				right));
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"10\" text-anchor=\"end\">%s%s</text>", left - 3,
				number(top), unit));
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>", left - 3,
				height - bottom));
	}

	/** 1, 2, 5 × 10^n at or above {@code value}. */
	static double niceTop(double value) {
		if (!(value > 0)) {
			return 1;
		}
		double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
		for (double step : new double[] { 1, 2, 2.5, 5, 10 }) {
			if (step * magnitude >= value) {
				return step * magnitude;
			}
		}
		return 10 * magnitude;
	}

	private static String number(double value) {
		return (Math.abs(value - Math.rint(value)) < 1e-9) ? String.format(Locale.ROOT, "%.0f", value)
				: String.format(Locale.ROOT, "%.1f", value);
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
