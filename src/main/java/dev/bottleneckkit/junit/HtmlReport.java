package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.SweepResult;

/**
 * {@code index.html}: a card per run or sweep, with its figures, evidence and charts, and
 * the baseline section.
 */
final class HtmlReport {

	private HtmlReport() {
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
			.meta{color:#3d4452;font-size:.88em;margin:.1rem 0 .35rem}
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

	/** Before / after against a baseline, side by side, what regressed in red. */
	static String baselineSection(Comparison comparison) {
		StringBuilder html = new StringBuilder("<section class=\"baseline\"><h2>Compared with the baseline</h2><p>")
			.append(comparison.regressed()
					? "<b class=\"regressed\">" + comparison.regressions().size() + " regression(s)</b> against "
					: "No regression against ")
			.append(ReportText.escape(String.valueOf(comparison.baseline())))
			.append("</p><table class=\"steps\"><tr><th>scenario</th><th>run</th><th>figure</th><th>before</th>"
					+ "<th>after</th><th>change</th><th>allowed</th></tr>");
		for (Comparison.Row row : comparison.rows()) {
			html.append(row.regression() ? "<tr class=\"regressed\">" : "<tr>");
			for (String cell : List.of(row.scenario(), row.run(), row.figure(), row.before(), row.after(), row.change(),
					row.allowed())) {
				html.append("<td>").append(ReportText.escape(cell)).append("</td>");
			}
			html.append("</tr>");
		}
		return html.append("</table></section>").toString();
	}

	/**
	 * Every route measured against a base image, a row each: its ceiling A → B, B / A
	 * with its 95 % interval, the spread of one block (what the run could resolve) and
	 * the route's own verdict, a regression in red; empty without one.
	 */
	static String guardSection(List<ReportEntry> entries) {
		List<ReportEntry.Swept> compared = entries.stream()
			.filter(ReportEntry.Swept.class::isInstance)
			.map(ReportEntry.Swept.class::cast)
			.filter((e) -> e.sweep().comparison().isPresent())
			.toList();
		if (compared.isEmpty()) {
			return "";
		}
		StringBuilder html = new StringBuilder("<section class=\"baseline\"><h2>Against the base image, route by route"
				+ "</h2><table class=\"steps\"><tr><th>scenario</th><th>route</th><th>base</th><th>ceiling A → B</th>"
				+ "<th>B/A (95 %)</th><th>a block</th><th>verdict</th></tr>");
		for (ReportEntry.Swept e : compared) {
			ABComparison ab = e.sweep().comparison().orElseThrow();
			Optional<ABComparison.Figure> ceiling = ab.figure("ceiling");
			boolean regressed = ab.regressed();
			List<String> cells = List.of(e.scenarioId(), e.caseName(), ab.baseImage(),
					ceiling.map((f) -> String.format(Locale.ROOT, "%.1f → %.1f rps", f.base(), f.head())).orElse("—"),
					ceiling.map(ABComparison.Figure::interval).orElse("—"),
					ceiling.map(ABComparison.Figure::spread).orElse("—"), ab.outcome());
			html.append(regressed ? "<tr class=\"regressed\">" : "<tr>");
			cells.forEach((cell) -> html.append("<td>").append(ReportText.escape(cell)).append("</td>"));
			html.append("</tr>");
		}
		return html.append("</table></section>").toString();
	}

	static String head(ReportEntry e) {
		boolean failed = e.state() == ReportEntry.Outcome.FAILED;
		StringBuilder head = new StringBuilder("<div class=\"head\"><span class=\"case\">")
			.append(ReportText.escape(e.caseName()))
			.append("</span><span class=\"badge ")
			.append(e.passed() ? "pass" : "fail")
			.append("\">")
			.append(e.passed() ? "passed" : failed ? "failed" : ReportText.escape(e.outcome()))
			.append("</span></div>");
		if (failed) {
			head.append("<div class=\"failmsg\">").append(ReportText.escape(e.failure())).append("</div>");
		}
		return head.toString();
	}

	static String failureCard(ReportEntry.Failing e) {
		LoadResult r = e.result();
		FailureMode mode = e.failureMode();
		double rate = mode.failuresPerSecondFor(r).orElse(Double.NaN);
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"kpis\">")
			.append(kpi("load", ReportText.load(r)))
			.append(kpi("expected",
					Double.isNaN(rate) ? "every request fails" : String.format(Locale.ROOT, "%.1f failures/s", rate)))
			.append(kpi("measured", String.format(Locale.ROOT, "%.1f failures/s", r.errorsPerSecond())))
			.append(kpi("time to fail p50", (r.errorCount() == 0) ? "—" : r.failureLatencyAt(50).toMillis() + " ms"))
			.append(kpi("answered", Long.toString(r.succeeded())))
			.append(kpi("generator busy",
					Math.round(r.generatorBusy() * 100) + " %" + (r.generatorSaturated() ? " ⚠" : "")))
			.append("</div>");
		card.append("<div class=\"cap\">fails by design: ").append(ReportText.escape(mode.explain())).append("</div>");
		card.append("<div class=\"body\"><dl>");
		card.append("<dt>failures</dt><dd>").append(ReportText.escape(ReportText.measuredFailures(r))).append("</dd>");
		evidenceTerms(card, e);
		card.append("</dl><div class=\"charts\">");
		card.append("<figure><figcaption>failed requests per second</figcaption>")
			.append(Charts.perSecondChart(r, rate, true))
			.append("</figure>");
		gaugeFigures(card, e.gauges(), r.warmUp().plus(r.window()).plusSeconds(2));
		card.append("</div></div></article>");
		return card.toString();
	}

	/**
	 * The entry's evidence as terms of a definition list: "downstream peak in-flight" —
	 * 5.
	 */
	static void evidenceTerms(StringBuilder card, ReportEntry e) {
		ReportText.evidenceLines(e).forEach((line) -> {
			int colon = line.indexOf(": ");
			card.append("<dt>")
				.append(ReportText.escape(line.substring(0, Math.max(0, colon))))
				.append("</dt><dd>")
				.append(ReportText.escape(line.substring(colon + 2)))
				.append("</dd>");
		});
	}

	static String card(ReportEntry e) {
		return switch (e) {
			case ReportEntry.Load load -> runCard(load);
			case ReportEntry.Failing failing -> failureCard(failing);
			case ReportEntry.Swept swept -> sweepCard(swept);
		};
	}

	static String runCard(ReportEntry.Load e) {
		LoadResult r = e.result();
		double expected = e.ceiling().throughputFor(r);
		double off = (r.throughput() - expected) / expected;
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"kpis\">")
			.append(kpi("load", ReportText.load(r)))
			.append(kpi("model", ReportText.rps(expected)))
			.append(kpi("measured",
					ReportText.rps(r.throughput()) + String.format(Locale.ROOT, " <small>%+.0f %%</small>", off * 100)))
			.append(kpi("p50 / p99",
					(r.succeeded() == 0) ? "—"
							: r.latencyAt(50).toMillis() + " / " + r.latencyAt(99).toMillis() + " ms"))
			.append(kpi("errors", Long.toString(r.errorCount())))
			.append(kpi("generator busy",
					Math.round(r.generatorBusy() * 100) + " %" + (r.generatorSaturated() ? " ⚠" : "")))
			.append("</div>");
		card.append("<div class=\"cap\">cap: ").append(ReportText.escape(e.ceiling().explain())).append("</div>");
		card.append("<div class=\"body\"><dl>");
		evidenceTerms(card, e);
		if (r.generatorSaturated()) {
			card.append(
					"<dt>load generator</dt><dd>saturated: the figures measure the generator, not the service</dd>");
		}
		card.append("</dl><div class=\"charts\">");
		card.append("<figure><figcaption>successful requests per second</figcaption>")
			.append(Charts.throughputChart(r, expected))
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
	static void gaugeFigures(StringBuilder card, Map<String, GaugeTimeline> gauges, Duration span) {
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
				still.add(name + " " + Charts.number(max));
			}
			else {
				card.append("<figure><figcaption>")
					.append(ReportText.escape(name))
					.append("</figcaption>")
					.append(Charts.gaugeChart(lastOf(samples, span)))
					.append("</figure>");
			}
		}));
		if (!still.isEmpty()) {
			card.append("<p class=\"still\">unchanged during the run: ")
				.append(ReportText.escape(String.join(" · ", still)))
				.append("</p>");
		}
	}

	/**
	 * The samples of the last {@code span}, their times counted from the first of them.
	 */
	static List<GaugeTimeline.Sample> lastOf(List<GaugeTimeline.Sample> samples, Duration span) {
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

	static String sweepCard(ReportEntry.Swept e) {
		SweepResult sweep = e.sweep();
		StringBuilder card = new StringBuilder("<article class=\"").append(e.passed() ? "pass" : "fail").append("\">");
		card.append(head(e));
		card.append("<div class=\"verdict\"><b>")
			.append(ReportText.escape(sweep.verdict().headline()))
			.append("</b> — ")
			.append(ReportText.escape(sweep.verdict().line()))
			.append("</div>");
		sweep.comparison()
			.ifPresent((comparison) -> card.append("<div class=\"verdict\" style=\"background:")
				.append(comparison.regressed() ? "#ffebe9" : "#dafbe1")
				.append("\"><b>B against A</b> — B ")
				.append(ReportText.escape(comparison.headImage()))
				.append(", A ")
				.append(ReportText.escape(comparison.baseImage()))
				.append(comparison.sameImage() ? " (the same image)" : "")
				.append(String.format(Locale.ROOT,
						", %d interleaved blocks at %d and %d users, %d s, the order drawn from seed %d:",
						comparison.blocks(), comparison.kneeUsers(), comparison.ceilingUsers(),
						comparison.took().toSeconds(), comparison.seed()))
				.append(comparison.lines()
					.stream()
					.map((line) -> "<br>" + ReportText.escape(line))
					.collect(java.util.stream.Collectors.joining()))
				.append("</div>"));
		sweep.confirmation()
			.ifPresent((confirmation) -> card.append("<div class=\"verdict\" style=\"background:")
				.append(confirmation.confirmed() ? "#dafbe1" : "#ffebe9")
				.append("\">")
				.append(ReportText.escape(confirmation.line()))
				.append(String.format(Locale.ROOT, " <small>(one start and two steps: %d s)</small>",
						confirmation.took().toSeconds()))
				.append("</div>"));
		sweep.search()
			.ifPresent((search) -> card.append("<div class=\"verdict\" style=\"background:")
				.append(search.found().isPresent() ? "#dafbe1" : "#fff8c5")
				.append("\">")
				.append(ReportText.escape(search.line()))
				.append(String.format(Locale.ROOT, " <small>(%d s)</small>", search.took().toSeconds()))
				.append("</div>"));
		sweep.nextCap()
			.ifPresent((next) -> card.append("<div class=\"meta\">next: ")
				.append(ReportText.escape(next.toString()))
				.append("</div>"));
		sweep.scalability()
			.ifPresent((fit) -> card.append("<div class=\"meta\">")
				.append(ReportText.escape(fit.toString()))
				.append("</div>"));
		card.append("<div class=\"kpis\">")
			.append(kpi("steps", sweep.steps().size() + " (" + MarkdownSummary.usersRange(sweep) + " users)"))
			.append(kpi("W₁ (one user)", sweep.oneUserLatency().toMillis() + " ms"))
			.append(kpi("ceiling", sweep.saturated() ? ReportText.rps(sweep.ceiling()) : "none"))
			.append(kpi("model", sweep.verdict().ceilingModel().map((m) -> ReportText.rps(m.rps())).orElse("—")))
			.append(kpi("knee", sweep.knee().map((k) -> k.users() + " users").orElse("—")))
			.append(kpi("took", sweep.took().toSeconds() + " s"))
			.append("</div><div class=\"body\"><div><table class=\"steps\"><tr><th>users</th><th>rps</th><th>mean ms</th>"
					+ "<th>p50 ms</th><th>errors</th><th>service cores</th><th>machine cores</th></tr>");
		sweep.steps()
			.forEach((step) -> card.append(String.format(Locale.ROOT,
					"<tr%s><td>%d</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>",
					sweep.knee().filter((k) -> k == step).isPresent() ? " class=\"knee\"" : "", step.users(),
					step.throughput(), step.meanLatency().toMillis(), step.result().median().toMillis(),
					step.result().errorCount(),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.service())).orElse("—"),
					step.cpu().map((use) -> String.format(Locale.ROOT, "%.2f", use.machineUsed())).orElse("—"))));
		card.append("</table><dl style=\"margin-top:.6rem\">");
		sweep.warmUp()
			.ifPresent((warmUp) -> card.append("<dt>warm-up</dt><dd>")
				.append(ReportText.escape(warmUp.toString()))
				.append("</dd>"));
		card.append("<dt>warm</dt><dd>").append(ReportText.escape(sweep.warmth())).append("</dd>");
		sweep.meters()
			.ifPresent((where) -> card.append("<dt>meters</dt><dd>read from ")
				.append(ReportText.escape(where))
				.append("</dd>"));
		sweep.blind()
			.forEach((line) -> card.append("<dt>blind</dt><dd>").append(ReportText.escape(line)).append("</dd>"));
		sweep.verdict()
			.readings()
			.forEach((key, value) -> card.append("<dt>")
				.append(ReportText.escape(key))
				.append("</dt><dd>")
				.append(ReportText.escape(value))
				.append("</dd>"));
		card.append(
				"</dl></div><div class=\"charts\"><figure><figcaption>throughput and mean latency against users</figcaption>")
			.append(Charts.sweepChart(sweep))
			.append("</figure>");
		gaugeFigures(card, e.gauges(), null);
		card.append("</div></div></article>");
		return card.toString();
	}

	static String kpi(String label, String value) {
		return "<div><label>" + ReportText.escape(label) + "</label>" + value + "</div>";
	}

	static String html(List<ReportEntry> entries) {
		return html(entries, null);
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
						+ " the run. Sweep charts: throughput (bars) and mean latency (orange) against users, the knee, the"
						+ " model, the Universal Scalability Law fitted to the steps (green dashed) and, when the verdict was"
						+ " put to the test, the steps with its knob turned (purple rings); in an A/B sweep, the base's steps"
						+ " (grey line) and, at the knee and the ceiling, the head's figure as the base's times the 95 %"
						+ " interval of B / A (purple bars).</div>");
		if (comparison != null) {
			html.append(baselineSection(comparison));
		}
		html.append(guardSection(entries));
		html.append("<nav>");
		byScenario.forEach((id, runs) -> {
			boolean allPassed = runs.stream().allMatch(ReportEntry::passed);
			html.append("<a href=\"#")
				.append(ReportText.escape(id))
				.append("\" class=\"")
				.append(allPassed ? "pass" : "fail")
				.append("\">")
				.append(ReportText.escape(id))
				.append(allPassed ? " ✓" : " ✗")
				.append("</a>");
		});
		html.append("</nav>");
		byScenario.forEach((id, runs) -> {
			html.append("<h2 id=\"")
				.append(ReportText.escape(id))
				.append("\">")
				.append(ReportText.escape(id + " — " + runs.get(0).scenarioTitle()))
				.append("</h2>");
			for (ReportEntry e : runs) {
				html.append(card(e));
			}
		});
		html.append(budgetSection());
		html.append("</main></body></html>\n");
		return html.toString();
	}

	/**
	 * Where the run's seconds went, per scenario class: the measured windows against
	 * everything around them (the same figures as {@code budget.json}).
	 */
	static String budgetSection() {
		Map<String, Map<String, Double>> classes = Budget.byClass();
		if (!Budget.recorded() || classes.isEmpty()) {
			return "";
		}
		StringBuilder html = new StringBuilder("<section class=\"baseline\"><h2>Where the time went</h2><p>"
				+ ReportText.escape(BudgetReport.INTRO) + "</p><table class=\"steps\"><tr><th>class</th>");
		BudgetReport.HEADINGS.forEach((heading) -> html.append("<th>").append(heading).append("</th>"));
		html.append("<th>overhead</th></tr>");
		classes.forEach((name, seconds) -> {
			html.append("<tr><td>").append(ReportText.escape(name)).append("</td>");
			for (String key : BudgetReport.COLUMNS) {
				html.append(String.format(Locale.ROOT, "<td>%.0f</td>", seconds.getOrDefault(key, 0.0)));
			}
			html.append("<td>").append(BudgetReport.overhead(seconds)).append("</td></tr>");
		});
		html.append("<tr><td><b>all</b></td>");
		for (String key : BudgetReport.COLUMNS) {
			html.append(String.format(Locale.ROOT, "<td><b>%.0f</b></td>", total(classes, key)));
		}
		html.append("<td><b>")
			.append(BudgetReport.overhead(total(classes, "wall"),
					total(classes, "windows") + total(classes, "warm_ups") + total(classes, "tails")))
			.append("</b></td></tr></table>");
		String slots = BudgetReport.slotLine(total(classes, "windows"), total(classes, "warm_ups"),
				total(classes, "tails"), total(classes, "load_turns"));
		for (String paragraph : slots.strip().split("\\R\\R")) {
			if (!paragraph.isBlank()) {
				html.append("<p>").append(ReportText.escape(paragraph.strip().replace("`", ""))).append("</p>");
			}
		}
		for (String line : BudgetReport.replayLines()) {
			html.append("<p>").append(ReportText.escape(line.strip().replace("`", ""))).append("</p>");
		}
		return html.append("</section>").toString();
	}

	private static double total(Map<String, Map<String, Double>> classes, String key) {
		return classes.values().stream().mapToDouble((seconds) -> seconds.getOrDefault(key, 0.0)).sum();
	}

}
