package dev.bottleneckkit.baseline;

import java.nio.file.Path;
import java.util.List;

/**
 * A run held against its {@link Baseline}: a row for each figure compared, before and
 * after, the change, the bound it was allowed and how that bound was derived.
 *
 * @param baseline the baseline's results.json
 * @param head the results.json held against it (null for one sweep held against it in a
 * test)
 * @param rows one per figure compared
 */
public record Comparison(Path baseline, Path head, List<Row> rows) {

	public Comparison {
		rows = List.copyOf(rows);
	}

	/** Whether any figure regressed beyond its bound. */
	public boolean regressed() {
		return this.rows.stream().anyMatch(Row::regression);
	}

	/** The rows that regressed. */
	public List<Row> regressions() {
		return this.rows.stream().filter(Row::regression).toList();
	}

	/**
	 * A Markdown section: a verdict line, then a table of every row, regressions marked.
	 */
	public String markdown() {
		StringBuilder md = new StringBuilder("## Compared with the baseline\n\n");
		if (this.rows.isEmpty()) {
			return md.append("No run or sweep of this run is in the baseline (")
				.append(this.baseline)
				.append(").\n")
				.toString();
		}
		md.append(regressed() ? "**" + regressions().size() + " regression(s)** against " : "No regression against ")
			.append(this.baseline)
			.append(":\n\n| scenario | run | figure | before | after | change | allowed | |\n|---|---|---|---|---|---|---|---|\n");
		for (Row row : this.rows) {
			md.append("| ")
				.append(row.scenario())
				.append(" | ")
				.append(row.run().replace("|", "\\|"))
				.append(" | ")
				.append(row.figure())
				.append(" | ")
				.append(row.before())
				.append(" | ")
				.append(row.after())
				.append(" | ")
				.append(row.change())
				.append(" | ")
				.append(row.allowed())
				.append(" | ")
				.append(row.regression() ? "**regressed**" : "ok")
				.append(" |\n");
		}
		return md.toString();
	}

	/**
	 * The regressions as lines for an assertion message: "S1 default pool: capped by was
	 * hikari pool; now tomcat threads".
	 */
	public String regressionLines() {
		StringBuilder lines = new StringBuilder();
		for (Row row : regressions()) {
			lines.append(String.format("%n  %s %s: %s was %s; now %s (%s, allowed %s)", row.scenario(), row.run(),
					row.figure(), row.before(), row.after(), row.change(), row.allowed()));
		}
		return lines.toString();
	}

	/**
	 * One figure before and after.
	 *
	 * @param scenario the scenario id
	 * @param run the run's case name or the sweep's name
	 * @param figure what is compared: "capped by", "ceiling", "throughput", "p99"
	 * @param before the baseline's figure
	 * @param after this run's figure
	 * @param change the relative change, or "same" / "changed"
	 * @param allowed the bound and how it was derived
	 * @param regression whether the change is beyond the bound, the wrong way
	 */
	public record Row(String scenario, String run, String figure, String before, String after, String change,
			String allowed, boolean regression) {
	}

}
