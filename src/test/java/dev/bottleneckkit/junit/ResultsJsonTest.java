package dev.bottleneckkit.junit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.internal.Results;
import dev.bottleneckkit.internal.SweepRecord;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.model.FailureMode;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The schema of results.json, pinned: a pipeline reads these names. */
class ResultsJsonTest {

	/**
	 * A resource the kit can name and the schema cannot is a results.json no pipeline
	 * accepts.
	 */
	@Test
	void theSchemaNamesEveryResourceAVerdictCanName() throws IOException {
		String schema;
		try (InputStream in = Results.class.getResourceAsStream("/dev/bottleneckkit/results.schema.json")) {
			schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}

		for (Resource resource : Resource.values()) {
			assertThat(schema).as("results.schema.json's verdict.resource enum").contains('"' + resource.name() + '"');
		}
	}

	@Test
	void aLoadASweepAndAFailureModeAreWrittenWithTheSchemasFields() {
		LoadResult pooled = LoadResults.closedLoop("default pool", 40, Duration.ofSeconds(8), 79,
				Duration.ofMillis(4000));
		ReportEntry load = new ReportEntry.Load(source("S1", "pool", "default pool"), pooled,
				Ceiling.of(5, "connections per route", Duration.ofMillis(500)), Map.of("downstream peak", "5"),
				Map.of());
		LoadResult timedOut = LoadResults.closedLoop("read timeout", 4, Duration.ofSeconds(8), 0, Duration.ZERO,
				Map.of("http-504 read-timeout", 63L), Duration.ofMillis(503));
		ReportEntry failure = new ReportEntry.Failing(source("S8", "timeouts", "read timeout"), timedOut,
				FailureMode.of("http-504 read-timeout", Duration.ofMillis(500), "the caller's timeout"), Map.of(),
				Map.of());
		SweepResult sweep = SweepResults.cappedByAPoolOfFive();
		ReportEntry swept = new ReportEntry.Swept(source("S1", "pool", "sweep"), sweep, Map.of(), Map.of());
		load.settle(null);
		failure.settle(null);
		swept.settle(new AssertionError("expected the cap to be Hikari"));

		Object results = Json.parse(ResultsJson.of(List.of(load, failure, swept)));

		assertThat(Json.string(results, "", "schema")).isEqualTo("bottleneck-kit/results/v2");
		assertThat(keys(Json.path(results, "environment"))).containsExactly("cores", "jdk", "os", "imageSet");
		List<?> runs = Json.array(results, "runs");
		assertThat(runs).hasSize(3);
		assertThat(keys(runs.get(0))).containsExactly("scenario", "title", "test", "case", "kind", "outcome", "load",
				"model", "measured", "routes", "gauges", "evidence", "sweep");
		assertThat(Json.string(runs.get(0), "", "kind")).isEqualTo("load");
		assertThat(Json.number(runs.get(0), "model", "rps")).isEqualTo(10.0);
		assertThat(Json.number(runs.get(0), "measured", "rps")).isCloseTo(9.875,
				org.assertj.core.data.Offset.offset(0.001));
		assertThat(Json.number(runs.get(0), "measured", "latency_ms", "p99")).isCloseTo(4000,
				org.assertj.core.data.Offset.offset(5.0));
		assertThat(Json.string(runs.get(1), "", "kind")).isEqualTo("failure-mode");
		assertThat(Json.number(runs.get(1), "model", "failuresPerSecond")).isEqualTo(8.0);
		assertThat(Json.number(runs.get(1), "measured", "errors", "http-504 read-timeout")).isEqualTo(63.0);
		assertThat(Json.path(runs.get(1), "measured", "latency_ms", "p50")).as("no answer, no latency").isNull();
		assertThat(Json.string(runs.get(2), "", "kind")).isEqualTo("sweep");
		assertThat(Json.string(runs.get(2), "", "outcome")).isEqualTo("failed: expected the cap to be Hikari");
		assertThat(Json.string(runs.get(2), "", "sweep", "verdict", "resource")).isEqualTo("HTTP_CLIENT_POOL");
		assertThat(Json.number(runs.get(2), "sweep", "kneeUsers")).isEqualTo(8.0);
		assertThat(Json.array(runs.get(2), "sweep", "steps")).hasSize(5);
	}

	@Test
	void theRecordsABaselineReadsAreTheOnesTheReportWrote() {
		LoadResult pooled = LoadResults.closedLoop("default pool", 40, Duration.ofSeconds(8), 79,
				Duration.ofMillis(4000));
		LoadResult timedOut = LoadResults.closedLoop("read timeout", 4, Duration.ofSeconds(8), 0, Duration.ZERO,
				Map.of("http-504 read-timeout", 63L), Duration.ofMillis(503));
		SweepResult sweep = SweepResults.cappedByAPoolOfFive();

		for (LoadResult load : List.of(pooled, timedOut)) {
			Map<String, Object> written = ResultsJson.measured(load);
			Results.Measured read = Results.Measured.read(Json.parse(Json.write(written)));

			assertThat(Json.write(read.json())).as(load.name()).isEqualTo(Json.write(written));
		}
		Map<String, Object> written = ResultsJson.record(sweep).json();
		SweepRecord read = SweepRecord.read(Json.parse(Json.write(written)));

		assertThat(Json.write(read.json())).isEqualTo(Json.write(written));
		assertThat(read.verdict().resource()).isEqualTo("HTTP_CLIENT_POOL");
		assertThat(read.kneeUsers()).hasValue(8);
		assertThat(read.steps()).hasSize(5);
		assertThat(timedOut.succeeded()).isZero();
		assertThat(Results.Measured.read(Json.parse(Json.write(ResultsJson.measured(timedOut)))).latency())
			.as("no answer, no latency")
			.isEmpty();
	}

	private static List<String> keys(Object object) {
		return ((Map<?, ?>) object).keySet().stream().map(String::valueOf).toList();
	}

	/**
	 * The file's outer layout is read by the same records that wrote it: what the report
	 * wrote, read back and written again, is the same text, every kind of run included.
	 */
	@Test
	void theWholeFileReadsBackThroughTheRecordsThatWroteIt() {
		SweepResult sweep = SweepResults.cappedByAPoolOfFive();
		ReportEntry swept = new ReportEntry.Swept(source("S1", "pool", "sweep"), sweep, Map.of("pool", "5"),
				Map.of("service", sweep.steps().get(3).service()));
		ReportEntry failure = new ReportEntry.Failing(source("S8", "timeouts", "read timeout"),
				LoadResults.closedLoop("read timeout", 4, Duration.ofSeconds(8), 0, Duration.ZERO,
						Map.of("http-504 read-timeout", 63L), Duration.ofMillis(503)),
				FailureMode.of("http-504 read-timeout", Duration.ofMillis(500), "the caller's timeout"), Map.of(),
				Map.of());
		String written = ResultsJson.of(List.of(swept, failure));

		Results.File read = Results.File.read(Json.parse(written));

		assertThat(Json.write(read.json())).isEqualTo(written);
		assertThat(read.runs()).extracting(Results.Run::kind)
			.containsExactly(Results.Kind.SWEEP, Results.Kind.FAILURE_MODE);
		assertThat(read.runs().get(0).sweep())
			.hasValueSatisfying((block) -> assertThat(block.name()).isEqualTo("S1 default pool"));
		assertThat(read.runs().get(1).model()).containsInstanceOf(Results.FailureModel.class);
	}

	private static ReportEntry.Source source(String scenarioId, String title, String caseName) {
		return new ReportEntry.Source(scenarioId, title, "test", caseName, "id");
	}

}
