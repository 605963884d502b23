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
 * The public API stays small and says what it means: at most {@value #TOP_LEVEL_BUDGET}
 * public top-level types outside {@code internal} and {@value #BUDGET} with the nested
 * ones, and no sentinel (NaN, null, -1) in a public signature's Javadoc where a type
 * belongs ({@code Optional}, a sealed verdict, a record per kind). What the boundary
 * keeps out, {@link LibraryBoundaryTest} holds.
 */
class PublicApiTest {

	private static final Path LIBRARY = Path.of("src/main/java/dev/bottleneckkit");

	/** A sentinel a Javadoc would promise: "NaN when", "null without", "-1 on". */
	private static final Pattern SENTINEL = Pattern
		.compile("^\\s*\\*.*(\\bNaN\\b|\\{@code null\\}|\\bnull (when|without|if|for)\\b|-1 (when|on|for|if)\\b)");

	/**
	 * Public top-level types outside {@code internal}: what a user's imports can name. 40
	 * are what a user writes and reads today: the loads with their request and result
	 * (4), the containers (4), the images (1), the probes and what they read (8), the
	 * models (2), the sweep with its knob, resource, steps, result, verdict,
	 * confirmation, search, fit, warm-up and A/B comparison (11), the baseline (1), the
	 * JUnit annotation and the report parameter (2), and the assertions: an entry point
	 * and, per result type, an abstract assert to extend and its leaf (7); and the 41st,
	 * {@code Kind}, a resource of the team's own that a jar or the test sources register
	 * once with {@code ServiceLoader} (issue 85). A new public type replaces one or
	 * raises the budget in review, with its reason.
	 */
	static final int TOP_LEVEL_BUDGET = 41;

	/**
	 * Public types a user can name, top-level and nested: nesting hides no API and
	 * splitting a class into files costs nothing. The 41 top-level ones and their 25
	 * nested records, enums, verdict kinds and the JUnit extension; the 25th is
	 * {@code Resource.Own}, a limit of the team's own a test declares (issue 54); the
	 * 26th and 27th are {@code LoadResult.InTurns} and its {@code Side}, what a load that
	 * takes two services in turns read (issue 55: A and B on one machine within half a
	 * second).
	 */
	static final int BUDGET = 68;

	/** A type declared on a line of its own, with its modifiers. */
	private static final Pattern DECLARATION = Pattern
		.compile("^(\\t*)((?:public |protected |private |static |final |abstract |sealed |non-sealed |strictfp )*)"
				+ "(class|interface|record|enum|@interface) (\\w+)", Pattern.MULTILINE);

	@Test
	void atMostTheBudgetOfPublicTypesTopLevelAndNestedNoneOfThemInternal() throws IOException {
		List<String> types = publicTypes();

		assertThat(types.stream().filter((type) -> !type.contains("."))).as("public top-level types outside internal")
			.hasSizeLessThanOrEqualTo(TOP_LEVEL_BUDGET);
		assertThat(types).as("public types outside internal, nested ones included").hasSizeLessThanOrEqualTo(BUDGET);
	}

	/**
	 * The public types outside {@code internal}: a public top-level type, and each type
	 * nested in it that is public, or declared straight in an interface or annotation
	 * (public there without the word).
	 */
	static List<String> publicTypes() throws IOException {
		List<String> types = new ArrayList<>();
		for (Path file : javaFiles()) {
			if (file.toString().contains("/internal/")) {
				continue;
			}
			String code = LayersTest.withoutCommentsAndStrings(Files.readString(file));
			String top = file.getFileName().toString().replace(".java", "");
			boolean topIsPublic = false;
			boolean topIsInterface = false;
			Matcher declaration = DECLARATION.matcher(code);
			while (declaration.find()) {
				int depth = declaration.group(1).length();
				boolean isPublic = declaration.group(2).contains("public");
				if (depth == 0 && declaration.group(4).equals(top)) {
					topIsPublic = isPublic;
					topIsInterface = declaration.group(3).contains("interface");
					if (isPublic) {
						types.add(top);
					}
				}
				else if (depth > 0 && topIsPublic && (isPublic || (depth == 1 && topIsInterface))) {
					types.add(top + "." + declaration.group(4));
				}
			}
		}
		return types;
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
