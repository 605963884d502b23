package dev.bottleneckkit.junit;

import java.util.List;
import java.util.Locale;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.Confirmation;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.Verdict;

/**
 * The report's SVG charts: throughput or failures a second, a gauge's samples, a sweep
 * against users.
 */
final class Charts {

	private Charts() {
	}

	/**
	 * Bars of successful requests per second, the warm-up grey, the model's rate dashed.
	 */
	static String throughputChart(LoadResult r, double expected) {
		return perSecondChart(r, expected, false);
	}

	/**
	 * Bars per second of successes, or of failures ({@code failures}), with the model's
	 * rate as a dashed line.
	 */
	static String perSecondChart(LoadResult r, double expected, boolean failures) {
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
	static String gaugeChart(List<GaugeTimeline.Sample> samples) {
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
	static String sweepChart(SweepResult sweep) {
		int width = 520;
		int height = 220;
		int left = 44;
		int right = 48;
		int bottom = 28;
		List<Step> steps = sweep.steps();
		double model = sweep.verdict().ceilingModel().map(Verdict.Model::rps).orElse(Double.NaN);
		double confirmed = sweep.confirmation().map(Confirmation::ceilingAfter).orElse(0.0);
		double base = sweep.comparison()
			.map((comparison) -> comparison.baseSteps().stream().mapToDouble(Step::throughput).max().orElse(0))
			.orElse(0.0);
		double top = niceTop(
				Math.max(Math.max(Math.max(sweep.ceiling(), confirmed), base), Double.isNaN(model) ? 0 : model) * 1.15);
		double latencyTop = niceTop(
				steps.stream().mapToDouble((s) -> s.meanLatency().toMillis()).max().orElse(1) * 1.1);
		double plotW = width - left - right;
		double plotH = height - bottom - 8;
		// The confirmation's steps fall beyond the climb's last (a knob doubled, two
		// steps past the knee): the axis holds them too, users doubling from slot to
		// slot.
		int firstUsers = steps.get(0).users();
		double slots = Math.max(steps.size(),
				sweep.confirmation()
					.map((confirmation) -> confirmation.steps()
						.stream()
						.mapToDouble((step) -> slotOf(step.users(), firstUsers) + 1)
						.max()
						.orElse(0))
					.orElse(0.0));
		double slot = plotW / slots;
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
		// The USL curve through the steps, users doubling from slot to slot.
		sweep.scalability().ifPresent((fit) -> {
			StringBuilder curve = new StringBuilder();
			for (int i = 0; i < (steps.size() - 1) * 8 + 1; i++) {
				double at = i / 8.0;
				double users = steps.get(0).users() * Math.pow(2, at);
				double y = height - bottom - Math.min(top, fit.throughputAt(users)) / top * plotH;
				curve.append(String.format(Locale.ROOT, "%.1f,%.1f ", left + (at + 0.5) * slot, y));
			}
			svg.append(
					"<polyline fill=\"none\" stroke=\"#1a7f37\" stroke-width=\"1.6\" stroke-dasharray=\"4 2\" points=\"")
				.append(curve)
				.append("\"><title>")
				.append(ReportText.escape(fit.toString()))
				.append("</title></polyline>");
		});
		// The confirmation's steps, where their users fall, as rings.
		sweep.confirmation().ifPresent((confirmation) -> confirmation.steps().forEach((step) -> {
			double at = slotOf(step.users(), firstUsers);
			double y = height - bottom - Math.min(top, step.throughput()) / top * plotH;
			svg.append(String.format(Locale.ROOT,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"none\" stroke=\"#8250df\" stroke-width=\"2\">"
							+ "<title>with %s, %d users: %.1f rps</title></circle>",
					left + (at + 0.5) * slot, y, ReportText.escape(confirmation.knob()), step.users(),
					step.throughput()));
			if (at >= steps.size()) {
				svg.append(String.format(Locale.ROOT,
						"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" style=\"fill:#8250df\">%d</text>",
						left + (at + 0.5) * slot, height - bottom + 12, step.users()));
			}
		}));
		sweep.comparison()
			.ifPresent((comparison) -> baseCurve(svg, comparison, steps, left, slot, height, bottom, top));
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

	/** Where {@code users} fall on a sweep's axis: users double from slot to slot. */
	private static double slotOf(int users, int firstUsers) {
		return Math.log(users / (double) firstUsers) / Math.log(2);
	}

	/**
	 * An A/B sweep's base (A) over the head's bars: its steps as a grey line, and at the
	 * knee's and the ceiling's users the head's figure as A's times the interval of B /
	 * A.
	 */
	private static void baseCurve(StringBuilder svg, ABComparison comparison, List<Step> steps, int left, double slot,
			int height, int bottom, double top) {
		double plotH = height - bottom - 8;
		StringBuilder line = new StringBuilder();
		for (Step step : comparison.baseSteps()) {
			double at = Math.log(step.users() / (double) steps.get(0).users()) / Math.log(2);
			double y = height - bottom - Math.min(top, step.throughput()) / top * plotH;
			line.append(String.format(Locale.ROOT, "%.1f,%.1f ", left + (at + 0.5) * slot, y));
			svg.append(String.format(Locale.ROOT,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#57606a\"><title>A (%s), %d users: %.1f rps</title></circle>",
					left + (at + 0.5) * slot, y, ReportText.escape(comparison.baseImage()), step.users(),
					step.throughput()));
		}
		svg.append("<polyline fill=\"none\" stroke=\"#57606a\" stroke-width=\"1.6\" points=\"")
			.append(line)
			.append("\"><title>A: ")
			.append(ReportText.escape(comparison.baseImage()))
			.append("</title></polyline>");
		interval(svg, comparison.figure("throughput at the knee"), comparison.kneeUsers(), steps, left, slot, height,
				bottom, top);
		interval(svg, comparison.figure("ceiling"), comparison.ceilingUsers(), steps, left, slot, height, bottom, top);
	}

	/**
	 * B's figure at {@code users} as A's times the 95 % interval of B / A, a bar with
	 * whiskers.
	 */
	private static void interval(StringBuilder svg, java.util.Optional<ABComparison.Figure> figure, int users,
			List<Step> steps, int left, double slot, int height, int bottom, double top) {
		if (figure.isEmpty()) {
			return;
		}
		double plotH = height - bottom - 8;
		double at = Math.log(users / (double) steps.get(0).users()) / Math.log(2);
		double x = left + (at + 0.5) * slot + slot * 0.22;
		ABComparison.Figure f = figure.get();
		double low = height - bottom - Math.min(top, f.base() * f.low()) / top * plotH;
		double high = height - bottom - Math.min(top, f.base() * f.high()) / top * plotH;
		svg.append(String.format(Locale.ROOT,
				"<g stroke=\"#8250df\" stroke-width=\"2\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
						+ "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
						+ "<title>%s: B/A %.3f (%.3f–%.3f, 95 %%)</title></g>",
				x, x, low, high, x - 4, x + 4, low, low, x - 4, x + 4, high, high, ReportText.escape(f.name()),
				f.ratio(), f.low(), f.high()));
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" style=\"fill:#8250df\">B/A %.2f</text>", x + 6,
				high - 2, f.ratio()));
	}

	static String svgOpen(int width, int height) {
		return String.format(Locale.ROOT, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", width,
				height, width, height);
	}

	/** The y axis: a baseline, the top value and zero. */
	static void axis(StringBuilder svg, int left, int right, int height, int bottom, double top, String unit) {
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

	static String number(double value) {
		return (Math.abs(value - Math.rint(value)) < 1e-9) ? String.format(Locale.ROOT, "%.0f", value)
				: String.format(Locale.ROOT, "%.1f", value);
	}

}
