package dev.bottleneckkit.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.bottleneckkit.baseline.Baseline;
import dev.bottleneckkit.baseline.Baseline.Comparison;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.LoadResults;
import dev.bottleneckkit.model.Ceiling;
import dev.bottleneckkit.sweep.SweepResult;
import dev.bottleneckkit.sweep.SweepResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A run held against a baseline: what regressed, before and after, and the bound each was
 * allowed.
 */
class BaselineComparisonTest {

	@TempDir
	Path dir;

	@Test
	void aLowerCeilingAnotherCapAndALowerThroughputAreRegressionsWithTheirBounds() throws IOException {
		Path main = write("main.json", SweepResults.cappedByAPoolOfFive(), load(80, 500));
		Path change = write("change.json", SweepResults.cappedByHikariAtFourRps(), load(40, 1000));

		Comparison comparison = Baseline.from(main).against(change);

		assertThat(comparison.regressed()).isTrue();
		assertThat(comparison.markdown()).contains("**4 regression(s)** against " + main,
				"| S1 | S1 default pool | capped by | http client pool | hikari pool | changed | the same resource | **regressed** |",
				"| S1 | S1 default pool | ceiling | 10.0 rps | 4.0 rps | -60 % | −5 % (3 × the 0 % spread of the steps at the"
						+ " ceiling, at least 5 %) | **regressed** |",
				"| S1 | pool | throughput | 80.0 rps | 40.0 rps | -50 % |",
				"| S1 | pool | p99 | 500 ms | 1000 ms | +100 % |");
	}

	@Test
	void aRunHeldAgainstItselfHasNoRegression() throws IOException {
		Path main = write("main.json", SweepResults.cappedByAPoolOfFive(), load(80, 500));

		Comparison comparison = Baseline.from(main).against(main);

		assertThat(comparison.regressed()).isFalse();
		assertThat(comparison.rows()).hasSize(4);
		assertThat(comparison.markdown()).contains("No regression against " + main);
	}

	@Test
	void aSweepAssertsAgainstTheBaselinesSweepOfTheSameName() throws IOException {
		Baseline main = Baseline.from(write("main.json", SweepResults.cappedByAPoolOfFive(), load(80, 500)));

		assertThat(SweepResults.cappedByAPoolOfFive()).comparedWith(main);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(SweepResults.cappedByHikariAtFourRps()).comparedWith(main))
			.withMessageContaining("S1 default pool regressed against the baseline")
			.withMessageContaining("S1 default pool: capped by was http client pool; now hikari pool");
	}

	@Test
	void aFileThatIsNoResultsJsonSaysSo() throws IOException {
		Path other = Files.writeString(this.dir.resolve("other.json"), "{\"name\":\"x\"}");

		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> Baseline.from(other))
			.withMessage(other + " is not a bottleneck-kit results.json (schema ''): pass the results.json of"
					+ " target/bottleneck-report");
	}

	private Path write(String name, SweepResult sweep, ReportEntry load) throws IOException {
		ReportEntry swept = new ReportEntry.Swept(source("S1", "pool", "sweep"), sweep, Map.of(), Map.of());
		swept.settle(null);
		load.settle(null);
		return Files.writeString(this.dir.resolve(name), ResultsJson.of(List.of(swept, load)));
	}

	/**
	 * A 10 s closed loop at {@code rps}, steady second by second, every answer after
	 * {@code latencyMs}.
	 */
	private static ReportEntry load(double rps, long latencyMs) {
		List<LoadResult.Second> timeline = new ArrayList<>();
		for (int second = 0; second < 10; second++) {
			timeline.add(new LoadResult.Second(second, Math.round(rps), 0, latencyMs, true));
		}
		LoadResult result = LoadResults.of("pool", 40, Duration.ofSeconds(10), Math.round(rps * 10),
				Duration.ofMillis(latencyMs), timeline, Duration.ZERO, Double.NaN);
		return new ReportEntry.Load(source("S1", "pool", "pool"), result,
				Ceiling.of(40, "users", Duration.ofMillis(500)), Map.of(), Map.of());
	}

	private static ReportEntry.Source source(String scenarioId, String title, String caseName) {
		return new ReportEntry.Source(scenarioId, title, "test", caseName, "id");
	}

}
