package dev.bottleneckkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API stays small and says what it means: at most 30 public top-level types
 * outside {@code internal}, and no sentinel (NaN, null, -1) in a public signature's
 * Javadoc where a type belongs ({@code Optional}, a sealed verdict, a record per kind).
 */
class PublicApiTest {

	private static final Path LIBRARY = Path.of("src/main/java/dev/bottleneckkit");

	/** A sentinel a Javadoc would promise: "NaN when", "null without", "-1 on". */
	private static final Pattern SENTINEL = Pattern
		.compile("^\\s*\\*.*(\\bNaN\\b|\\{@code null\\}|\\bnull (when|without|if|for)\\b|-1 (when|on|for|if)\\b)");

	@Test
	void atMostThirtyPublicTopLevelTypesNoneOfThemInternal() throws IOException {
		List<String> types = new ArrayList<>();
		for (Path file : javaFiles()) {
			String text = Files.readString(file);
			String name = file.getFileName().toString().replace(".java", "");
			if (!file.toString().contains("/internal/") && Pattern
				.compile("^public (final |abstract |sealed )*(class|interface|record|enum|@interface) " + name + "\\b",
						Pattern.MULTILINE)
				.matcher(text)
				.find()) {
				types.add(LIBRARY.relativize(file).toString());
			}
		}

		assertThat(types).as("public top-level types outside internal").hasSizeLessThanOrEqualTo(30);
	}

	@Test
	void noPublicJavadocPromisesASentinel() throws IOException {
		List<String> sentinels = new ArrayList<>();
		for (Path file : javaFiles()) {
			if (file.toString().contains("/internal/")) {
				continue;
			}
			List<String> lines = Files.readAllLines(file);
			List<Integer> javadoc = new ArrayList<>();
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i).trim();
				if (line.startsWith("/**")) {
					javadoc.clear();
				}
				if (line.startsWith("/**") || line.startsWith("*")) {
					javadoc.add(i);
					continue;
				}
				if (line.isEmpty() || line.startsWith("@")) {
					continue;
				}
				// The Javadoc of a public declaration: what a user reads.
				if (line.startsWith("public ")) {
					for (int j : javadoc) {
						if (SENTINEL.matcher(lines.get(j)).find()) {
							sentinels.add(LIBRARY.relativize(file) + ":" + (j + 1) + ": " + lines.get(j).trim());
						}
					}
				}
				javadoc.clear();
			}
		}

		assertThat(sentinels).as("Javadoc that promises NaN, null or -1: give the API a type instead").isEmpty();
	}

	private static List<Path> javaFiles() throws IOException {
		try (Stream<Path> files = Files.walk(LIBRARY)) {
			return files.filter((path) -> path.toString().endsWith(".java")).sorted().toList();
		}
	}

}
