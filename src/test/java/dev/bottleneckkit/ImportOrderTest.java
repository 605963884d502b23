package dev.bottleneckkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Imports in the house order, in the library and in the scenarios users copy:
 * {@code java.*} and {@code javax.*}, every other package, then static imports; each
 * group alphabetical, a blank line between groups.
 * {@code python3 .ci/sort-imports.py FILE…} puts a file in order.
 */
class ImportOrderTest {

	@Test
	void everyFileImportsInTheHouseOrder() throws IOException {
		List<String> unordered = new ArrayList<>();
		for (Path root : List.of(Path.of("src/main/java"), Path.of("src/test/java"))) {
			try (Stream<Path> files = Files.walk(root)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					List<String> imports = Files.readAllLines(file)
						.stream()
						.filter((line) -> line.startsWith("import ") || line.isBlank())
						.dropWhile(String::isBlank)
						.toList();
					List<String> block = trimmed(imports);
					if (!block.equals(houseOrder(block))) {
						unordered.add(file.toString());
					}
				}
			}
		}

		assertThat(unordered).as("files whose imports are out of order: python3 .ci/sort-imports.py FILE…").isEmpty();
	}

	/** The import lines and the blank lines between them, up to the last import. */
	private static List<String> trimmed(List<String> lines) {
		int last = lines.size() - 1;
		while (last >= 0 && !lines.get(last).startsWith("import ")) {
			last--;
		}
		return lines.subList(0, last + 1);
	}

	private static List<String> houseOrder(List<String> block) {
		List<String> sorted = block.stream()
			.filter((line) -> !line.isBlank())
			.distinct()
			.sorted(Comparator.comparingInt(ImportOrderTest::group)
				.thenComparing((line) -> line.substring(0, line.length() - 1)))
			.toList();
		List<String> ordered = new ArrayList<>();
		for (int i = 0; i < sorted.size(); i++) {
			if (i > 0 && group(sorted.get(i)) != group(sorted.get(i - 1))) {
				ordered.add("");
			}
			ordered.add(sorted.get(i));
		}
		return ordered;
	}

	private static int group(String line) {
		String name = line.substring("import ".length());
		if (name.startsWith("static ")) {
			return 2;
		}
		return (name.startsWith("java.") || name.startsWith("javax.")) ? 0 : 1;
	}

}
