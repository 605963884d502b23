package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.ABComparison;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {

	@Test
	void reportShowsExpectedAndMeasuredFiguresEvidenceAndOutcome() {
		ReportEntry entry = entry("default pool <5>");
		entry.settle(null);

		String html = ReportWriter.html(List.of(entry));
		String markdown = ReportWriter.markdown(List.of(entry));

		assertThat(html).as("figures, cap and evidence in the HTML")
			.contains("10.0 rps", "9.9 rps", "4000 ms", "5 connections per route / 0.500 s = 10.0 rps",
					"downstream peak in-flight</dt><dd>5</dd>", "passed", "<svg")
			.as("case names are escaped")
			.contains("default pool &lt;5&gt;")
			.doesNotContain("default pool <5>");
		assertThat(markdown).contains(
				"| S1 | default pool <5> | 40 users | 5 connections per route / 0.500 s = 10.0 rps | 10.0 rps | 9.9 rps |");
	}

	/**
	 * A run that proves a failure mode was shown as "expected 8.0 rps, measured 0.0 rps,
	 * passed": it shows the failure it expects, failures per second and time to fail,
	 * beside the failures it measured.
	 */
	@Test
	void aRunThatProvesAFailureModeShowsTheExpectedFailureNotAThroughput() {
		LoadResult timedOut = LoadResults.closedLoop("read timeout", 4, Duration.ofSeconds(8), 0, Duration.ZERO,
				Map.of("http-504 read-timeout", 63L), Duration.ofMillis(503));
		ReportEntry entry = new ReportEntry.Failing(source("S8", "timeouts", "read timeout 500 ms"), timedOut,
				FailureMode.of("http-504 read-timeout", Duration.ofMillis(500), "the caller's 500 ms read timeout"),
				Map.of(), Map.of());
		entry.settle(null);

		String markdown = ReportWriter.markdown(List.of(entry));
		String html = ReportWriter.html(List.of(entry));

		assertThat(markdown).contains("| S8 | read timeout 500 ms | 4 users | fails by design: every request fails with"
				+ " http-504 read-timeout after 500 ms: the caller's 500 ms read timeout | 8.0 failures/s of http-504"
				+ " read-timeout, each after 500 ms | 7.9 failures/s: 63 × http-504 read-timeout, time to fail p50 503 ms;"
				+ " 0 answered |")
			.doesNotContain("0.0 rps");
		assertThat(html)
			.contains("fails by design", "8.0 failures/s", "7.9 failures/s", "503 ms", "failed requests per second")
			.doesNotContain("0.0 rps");
	}

	@Test
	void aFailedRunShowsTheFirstLineOfItsAssertion() {
		ReportEntry entry = entry("sized pool");
		entry.settle(new AssertionError("measured 9.9 rps; expected 80.0 rps ±15 %\n  run: details"));

		assertThat(ReportWriter.html(List.of(entry))).contains(">failed<", "measured 9.9 rps; expected 80.0 rps ±15 %")
			.doesNotContain("run: details");
	}

	@Test
	void scenariosAppearInTheirOwnOrderAndOpenLoopsShowTheirRate() {
		ReportEntry s2 = entry("S2", "closed", Double.NaN);
		ReportEntry s10 = entry("S10", "open", 20);
		ReportEntry s1 = entry("S1", "closed", Double.NaN);

		ReportEntry k1 = entry("K1", "kit", Double.NaN);

		String markdown = ReportWriter.markdown(ReportWriter.ordered(List.of(k1, s10, s2, s1)));

		assertThat(markdown).containsSubsequence("| S1 |", "| S2 |", "| S10 | open | 20 rps offered |", "| K1 |");
	}

	@Test
	void aSweepShowsItsVerdictChartAndStepsAndSummaryMdCarriesTheVerdict() {
		SweepResult sweep = SweepResults.cappedByAPoolOfFive();
		LoadResult last = sweep.steps().get(sweep.steps().size() - 1).result();
		ReportEntry entry = new ReportEntry.Swept(source("S1", "default pool", "sweep: default pool"), sweep,
				sweep.verdict().readings(), Map.of("service", sweep.steps().get(3).service()));
		entry.settle(null);

		String html = ReportWriter.html(List.of(entry));
		String markdown = ReportWriter.markdown(List.of(entry));

		assertThat(html).as(sweep.verdict().line())
			.contains("HttpClient connection pool", "capped at 10.0 rps from 8 users: HttpClient pool 5/5 leased",
					"knee", "model 10.0", "<polyline", "service · http.pool.pending");
		assertThat(markdown)
			.contains("| S1 | sweep: default pool | sweep, 1→16 users | HttpClient connection pool | 10.0 rps |"
					+ " 10.0 rps |", "verdict: capped at 10.0 rps from 8 users");
	}

	/**
	 * An A/B sweep's card: the comparison's lines, A's steps drawn over B's bars, and B's
	 * figures at the knee and the ceiling with their intervals; results.json carries it.
	 */
	@Test
	void anABSweepShowsBothCurvesTheIntervalsAndItsVerdict() {
		SweepResult head = SweepResults.cappedByAPoolOfFive();
		SweepResult sweep = SweepResults.compared(head, new ABComparison("orders:main", "orders:pr-7", false, 8, 16,
				List.of(new ABComparison.Figure("ceiling", "rps", 12.4, 9.9, 0.80, 0.78, 0.82, 0.011, true),
						new ABComparison.Figure("throughput at the knee", "rps", 12.2, 9.9, 0.81, 0.79, 0.83, 0.012,
								true),
						new ABComparison.Figure("p99 at the knee", "ms", 650, 810, 1.25, 1.18, 1.31, 0.04, false)),
				"HttpClient connection pool", "HttpClient connection pool", false, 6, 42L, head.steps(),
				Duration.ofSeconds(140), 0.05));
		ReportEntry entry = new ReportEntry.Swept(source("S1", "default pool", "sweep: default pool"), sweep, Map.of(),
				Map.of());
		entry.settle(null);

		String html = ReportWriter.html(List.of(entry));
		String json = ResultsJson.of(List.of(entry));

		assertThat(html).contains("B against A", "orders:pr-7", "6 interleaved blocks at 8 and 16 users", "seed 42",
				"ceiling: 12.4 → 9.9 rps, B/A 0.800 (0.780–0.820, 95 %), a block ±1.1 %: regressed",
				"A (orders:main), 8 users", "B/A 0.80");
		assertThat(Json.path(Json.parse(json), "runs")).isInstanceOfSatisfying(List.class,
				(runs) -> assertThat(Json.string(runs.get(0), "", "sweep", "comparison", "headImage"))
					.isEqualTo("orders:pr-7"));
		assertThat(json).contains("\"regressed\": true", "\"change\": \"regressed\"", "\"seed\": \"42\"",
				"\"noise\": 0.011");
		assertThat(html).contains("Against the base image, route by route",
				"<tr class=\"regressed\"><td>S1</td><td>sweep: default pool</td><td>orders:main</td>"
						+ "<td>12.4 → 9.9 rps</td><td>0.800 (0.780–0.820)</td><td>±1.1 %</td><td>regressed</td></tr>");
	}

	/**
	 * A guard of several routes fails on one; each route's own verdict stands beside the
	 * test's failure, so that the routes that did not move say so.
	 */
	@Test
	void aFailedGuardsOtherRoutesSayTheirOwnOutcome() {
		SweepResult head = SweepResults.cappedByAPoolOfFive();
		SweepResult label = SweepResults.compared(head, new ABComparison("stock:main", "stock:pr-7", false, 4, 8,
				List.of(new ABComparison.Figure("ceiling", "rps", 15.0, 15.0, 1.000, 0.999, 1.001, 0.002, true)),
				"renderers", "renderers", false, 6, 42L, head.steps(), Duration.ofSeconds(130), 0.05));
		ReportEntry entry = new ReportEntry.Swept(source("T4", "routes", "guard /label against main"), label, Map.of(),
				Map.of());
		entry.settle(new AssertionError("stock:pr-7 regressed against stock:main beyond 5 %"));

		assertThat(entry.outcome()).isEqualTo("failed: stock:pr-7 regressed against stock:main beyond 5 %;"
				+ " this route alone: no change beyond 5 %");
		assertThat(ReportWriter.html(List.of(entry))).contains("<tr><td>T4</td><td>guard /label against main</td>");
	}

	@Test
	void eachRunShowsTheGaugesSampledBesideIt() {
		ReportEntry entry = new ReportEntry.Load(source("S1", "default pool", "default pool"), entry("x").result(),
				Ceiling.of(5, "connections per route", Duration.ofMillis(500)), Map.of(),
				Map.of("caller", SweepResults.cappedByAPoolOfFive().steps().get(3).service()));

		assertThat(ReportWriter.html(List.of(entry))).contains("caller · http.pool.leased",
				"caller · http.pool.pending", "max 11");
	}

	@Test
	void gaugesThatNeverMovedAreNumbersNotCharts() {
		List<GaugeTimeline.Sample> configured = List.of(new GaugeTimeline.Sample(Duration.ZERO, 200),
				new GaugeTimeline.Sample(Duration.ofSeconds(1), 200));
		List<GaugeTimeline.Sample> virtual = List.of(new GaugeTimeline.Sample(Duration.ZERO, -1),
				new GaugeTimeline.Sample(Duration.ofSeconds(1), -1));
		GaugeTimeline gauges = new GaugeTimeline(
				new LinkedHashMap<>(Map.of("tomcat.threads.config.max", configured, "tomcat.threads.busy", virtual)));
		ReportEntry entry = new ReportEntry.Load(source("S2", "virtual", "virtual"), entry("x").result(),
				Ceiling.of(40, "users", Duration.ofMillis(300)), Map.of(), Map.of("service", gauges));

		assertThat(ReportWriter.html(List.of(entry)))
			.contains("unchanged during the run:", "service · tomcat.threads.config.max 200",
					"service · tomcat.threads.busy n/a")
			.doesNotContain("<figcaption>service · tomcat.threads.config.max</figcaption>");
	}

	private static ReportEntry entry(String caseName) {
		return entry("S1", caseName, Double.NaN);
	}

	private static ReportEntry entry(String scenarioId, String caseName, double offeredRps) {
		LoadResult result = LoadResults.of("load", 40, Duration.ofSeconds(10), 99, Duration.ofSeconds(4),
				List.of(new LoadResult.Second(0, 8, 0, 3900, false), new LoadResult.Second(1, 10, 0, 4000, true)),
				Duration.ofSeconds(1), offeredRps);
		Map<String, String> evidence = new LinkedHashMap<>();
		evidence.put("downstream peak in-flight", "5");
		return new ReportEntry.Load(source(scenarioId, "default pool", caseName), result,
				Ceiling.of(5, "connections per route", Duration.ofMillis(500)), evidence, Map.of());
	}

	private static ReportEntry.Source source(String scenarioId, String title, String caseName) {
		return new ReportEntry.Source(scenarioId, title, "test", caseName, "id");
	}

}
