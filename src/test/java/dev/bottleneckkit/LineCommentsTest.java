package dev.bottleneckkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No line comment broken mid-sentence: the formatter wraps a {@code //} line past
 * {@value #WIDTH} columns and leaves the rest ("after", "the") on a line of its own. A
 * comment line is broken when the next line's first word would still fit on it and it
 * ends no sentence. {@code python3 .ci/reflow-comments.py FILE…} re-fills such a comment.
 */
class LineCommentsTest {

	/** The width the formatter wraps comments at, tabs as 4 columns. */
	static final int WIDTH = 90;

	private static final Pattern LINE_COMMENT = Pattern.compile("^(\\s*)//(.*)$");

	@Test
	void noLineCommentIsBrokenMidSentence() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path root : List.of(Path.of("src/main/java"), Path.of("src/test/java"), Path.of(".ci"))) {
			try (Stream<Path> files = Files.walk(root)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
					List<String> lines = Files.readAllLines(file);
					brokenLines(lines).forEach((line) -> broken.add(file + ":" + (line + 1) + ": " + lines.get(line)));
				}
			}
		}

		assertThat(broken).as("line comments broken mid-sentence: python3 .ci/reflow-comments.py FILE…").isEmpty();
	}

	@Test
	void aWordLeftOnALineOfItsOwnIsBroken() {
		List<String> lines = List.of("\t\t// Stored before the containers, so JUnit closes it", "\t\t// after",
				"\t\t// they have stopped.", "\t\t// A sentence that ends.", "\t\t// Another one.");

		assertThat(brokenLines(lines)).containsExactly(0, 1);
	}

	/**
	 * The indexes of the comment lines that leave room for the next line's first word and
	 * end no sentence.
	 */
	static List<Integer> brokenLines(List<String> lines) {
		List<Integer> broken = new ArrayList<>();
		for (int i = 0; i + 1 < lines.size(); i++) {
			Matcher line = LINE_COMMENT.matcher(lines.get(i));
			Matcher next = LINE_COMMENT.matcher(lines.get(i + 1));
			if (!line.matches() || !next.matches() || !line.group(1).equals(next.group(1))) {
				continue;
			}
			String text = line.group(2).strip();
			String following = next.group(2).strip();
			if (text.isEmpty() || following.isEmpty() || following.startsWith("-") || text.matches(".*[.:;!?]$")) {
				continue;
			}
			int width = lines.get(i).stripTrailing().replace("\t", "    ").length();
			if (width + 1 + following.split("\\s+")[0].length() <= WIDTH) {
				broken.add(i);
			}
		}
		return broken;
	}

}
