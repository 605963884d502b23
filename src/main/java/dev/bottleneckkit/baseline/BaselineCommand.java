package dev.bottleneckkit.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.bottleneckkit.baseline.Baseline.Comparison;

/**
 * The comparison from a shell, as a CI job runs it:
 * {@code java -cp bottleneck-kit.jar dev.bottleneckkit.baseline.BaselineCommand BASE.json HEAD.json [SUMMARY.md]}
 * prints the comparison in Markdown (and appends it to {@code SUMMARY.md}, e.g.
 * {@code $GITHUB_STEP_SUMMARY}), and exits 1 when anything regressed, 2 on bad input.
 */
final class BaselineCommand {

	private BaselineCommand() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 2 || args.length > 3) {
			System.err.println(
					"usage: BaselineCommand BASE.json HEAD.json [SUMMARY.md]: BASE and HEAD are results.json files");
			System.exit(2);
		}
		Comparison comparison;
		try {
			comparison = Baseline.from(Path.of(args[0])).against(Path.of(args[1]));
		}
		catch (RuntimeException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		String markdown = comparison.markdown();
		System.out.print(markdown);
		if (args.length == 3) {
			Files.writeString(Path.of(args[2]), markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		System.exit(comparison.regressed() ? 1 : 0);
	}

}
