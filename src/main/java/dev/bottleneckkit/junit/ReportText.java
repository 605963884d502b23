package dev.bottleneckkit.junit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.model.FailureMode;

/**
 * How the reports write a load, a rate, a failure and evidence, the same in every page.
 */
final class ReportText {

	private ReportText() {
	}

	/** "40 users" for a closed loop, "20 rps offered" for an open one. */
	static String load(LoadResult r) {
		return r.offeredRps().isPresent() ? String.format(Locale.ROOT, "%.0f rps offered", r.offeredRps().getAsDouble())
				: r.users() + " users";
	}

	/** A latency percentile of the successes, or "—" when nothing succeeded. */
	static String millis(LoadResult r, double percentile) {
		return (r.succeeded() == 0) ? "—" : r.latencyAt(percentile).toMillis() + " ms";
	}

	static String rps(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

	/** "4.0 failures/s of http-504 read-timeout, each after 500 ms" */
	static String expectedFailures(FailureMode mode, LoadResult r) {
		double rate = mode.failuresPerSecondFor(r).orElse(Double.NaN);
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
			.collect(Collectors.joining(", "));
		return String.format(Locale.ROOT, "%.1f failures/s: %s, time to fail p50 %d ms; %d answered",
				r.errorsPerSecond(), kinds, r.failureLatencyAt(50).toMillis(), r.succeeded());
	}

	static String evidence(ReportEntry e, String separator) {
		return String.join(separator, evidenceLines(e));
	}

	static List<String> evidenceLines(ReportEntry e) {
		List<String> lines = new ArrayList<>();
		e.evidence().forEach((key, value) -> lines.add(key + ": " + value));
		if (!e.result().errors().isEmpty()) {
			lines.add("errors by kind: " + e.result().errors());
		}
		return lines;
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
