package dev.bottleneckkit.internal;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A report directory that cannot be written: the scenarios still run, and one line says
 * where the report went.
 */
class ReportDirectoryTest {

	@Test
	void aDirectoryThatCannotBeWrittenFallsBackAndSaysWhereTheReportWent(@TempDir Path temp) throws Exception {
		Path aFile = Files.writeString(temp.resolve("a-file"), "not a directory");
		Path configured = aFile.resolve("bottleneck-report");

		ReportDirectory.Resolution resolution = ReportDirectory.resolve(configured);

		assertThat(Files.isWritable(resolution.directory())).as("the fallback can be written").isTrue();
		assertThat(resolution.problem()).isEqualTo(
				"The report directory " + configured.toAbsolutePath() + " cannot be written (FileSystemException: "
						+ configured + ": Not a directory): the report and evidence go to " + resolution.directory()
						+ "; set -Dbottleneck.report-dir to a writable directory");
	}

	@Test
	void aWritableDirectoryIsUsedAsItIs(@TempDir Path temp) {
		ReportDirectory.Resolution resolution = ReportDirectory.resolve(temp.resolve("report"));

		assertThat(resolution.directory()).isEqualTo(temp.resolve("report"));
		assertThat(resolution.problem()).isNull();
	}

}
