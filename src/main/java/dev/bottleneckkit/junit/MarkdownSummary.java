package dev.bottleneckkit.junit;

import java.util.List;
import java.util.Locale;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.sweep.SweepResult;

/** {@code summary.md}: a row per run or sweep, for CI job summaries. */
final class MarkdownSummary {

	private MarkdownSummary() {
	}

	static String markdown(List<ReportEntry> entries) {
		StringBuilder md = new StringBuilder("# bottleneck-kit scenario report\n\n");
		md.append(
				"| scenario | run | load | cap (λ = L / W) | expected | measured | p50 | p99 | errors | evidence | outcome |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (ReportEntry e : entries) {
			LoadResult r = e.result();
			if (e instanceof ReportEntry.Swept swept) {
				SweepResult sweep = swept.sweep();
				md.append(String.format(Locale.ROOT,
						"| %s | %s | sweep, %s users | %s | %s | %s | — | — | %d | %s | %s |%n", e.scenarioId(),
						md(e.caseName()), usersRange(sweep), md(sweep.verdict().headline()),
						sweep.verdict().ceilingModel().map((m) -> ReportText.rps(m.rps())).orElse("—"),
						sweep.saturated() ? ReportText.rps(sweep.ceiling()) : "—", r.errorCount(),
						md("verdict: " + sweep.verdict().line()
								+ sweep.confirmation().map((c) -> "; " + c.line()).orElse("")
								+ sweep.nextCap().map((next) -> "; next: " + next).orElse("")),
						md(e.outcome())));
				continue;
			}
			if (e instanceof ReportEntry.Failing failing) {
				FailureMode mode = failing.failureMode();
				md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |%n",
						e.scenarioId(), md(e.caseName()), ReportText.load(r), md("fails by design: " + mode.explain()),
						md(ReportText.expectedFailures(mode, r)), md(ReportText.measuredFailures(r)),
						ReportText.millis(r, 50), ReportText.millis(r, 99), r.errorCount(),
						md(ReportText.evidence(e, "; ")), md(e.outcome())));
				continue;
			}
			Ceiling ceiling = ((ReportEntry.Load) e).ceiling();
			md.append(String.format(Locale.ROOT,
					"| %s | %s | %s | %s | %.1f rps | %.1f rps | %s | %s | %d | %s | %s |%n", e.scenarioId(),
					md(e.caseName()), ReportText.load(r), ceiling.explain(), ceiling.throughputFor(r), r.throughput(),
					ReportText.millis(r, 50), ReportText.millis(r, 99), r.errorCount(),
					md(ReportText.evidence(e, "; ")), md(e.outcome())));
		}
		return md.toString();
	}

	static String md(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	static String usersRange(SweepResult sweep) {
		return sweep.steps().get(0).users() + "→" + sweep.steps().get(sweep.steps().size() - 1).users();
	}

}
