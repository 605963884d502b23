package dev.bottleneckkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library's packages as floors, each using only its own floor and the ones below: the
 * JUnit integration (with the report) and the assertions on top, then the sweep, the
 * probes and models, loads and containers, images, and {@code internal} at the ground. An
 * arrow upwards means a file sits on the wrong floor. Inside a package the files are
 * floors too: the file-level graph (imports, qualified names, and a type of the same
 * package named in code) has no circle, so every arrow points down.
 */
class LayersTest {

	/** Package to floor; a package may use packages on its floor or below. */
	static final Map<String, Integer> FLOORS = Map.of("internal", 0, "images", 1, "load", 2, "containers", 2, "model",
			3, "probe", 3, "sweep", 4, "baseline", 5, "assertions", 5, "junit", 5);

	private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.bottleneckkit\\.([a-z]+)\\.");

	private static final Path LIBRARY = Path.of("src/main/java/dev/bottleneckkit");

	/** A name in code: a Java identifier. */
	private static final Pattern IDENTIFIER = Pattern.compile("\\b[A-Za-z_][A-Za-z0-9_]*\\b");

	/**
	 * An import or a qualified name of a kit type: its package and its top-level type.
	 */
	private static final Pattern QUALIFIED = Pattern
		.compile("\\bdev\\.bottleneckkit\\.((?:[a-z0-9]+\\.)*[a-z0-9]+)\\.([A-Z]\\w*)");

	/**
	 * Each file of the library ({@code sweep/Sweep}) to the files it uses: what it
	 * imports or names qualified, and the types of its own package it names in code
	 * (comments and strings left out: a Javadoc link is no arrow).
	 */
	private static Map<String, Set<String>> fileArrows() throws IOException {
		Map<String, String> code = new TreeMap<>();
		try (Stream<Path> files = Files.walk(LIBRARY)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String name = LIBRARY.relativize(file).toString().replace(".java", "");
				if (!name.endsWith("package-info")) {
					code.put(name, withoutCommentsAndStrings(Files.readString(file)));
				}
			}
		}
		Map<String, Set<String>> arrows = new TreeMap<>();
		code.forEach((from, text) -> {
			String pkg = from.substring(0, from.lastIndexOf('/'));
			Set<String> to = new TreeSet<>();
			Matcher qualified = QUALIFIED.matcher(text);
			while (qualified.find()) {
				to.add(qualified.group(1).replace('.', '/') + "/" + qualified.group(2));
			}
			Matcher name = IDENTIFIER.matcher(text.replaceAll("(?m)^(package|import) .*$", ""));
			while (name.find()) {
				to.add(pkg + "/" + name.group());
			}
			to.retainAll(code.keySet());
			to.remove(from);
			arrows.put(from, to);
		});
		return arrows;
	}

	/**
	 * Java source without its comments and its string, text-block and character literals.
	 */
	static String withoutCommentsAndStrings(String source) {
		StringBuilder code = new StringBuilder(source.length());
		int i = 0;
		while (i < source.length()) {
			char c = source.charAt(i);
			if (source.startsWith("//", i)) {
				i = source.indexOf('\n', i);
				i = (i < 0) ? source.length() : i;
			}
			else if (source.startsWith("/*", i)) {
				int end = source.indexOf("*/", i + 2);
				i = (end < 0) ? source.length() : end + 2;
				code.append(' ');
			}
			else if (source.startsWith("\"\"\"", i)) {
				int end = source.indexOf("\"\"\"", i + 3);
				i = (end < 0) ? source.length() : end + 3;
				code.append("\"\"");
			}
			else if (c == '"' || c == '\'') {
				int j = i + 1;
				while (j < source.length() && source.charAt(j) != c) {
					j += (source.charAt(j) == '\\') ? 2 : 1;
				}
				i = j + 1;
				code.append(c).append(c);
			}
			else {
				code.append(c);
				i++;
			}
		}
		return code.toString();
	}

	/**
	 * The circles of {@code arrows}: groups of two or more files that reach each other
	 * (Tarjan).
	 */
	static List<List<String>> circles(Map<String, Set<String>> arrows) {
		Map<String, Integer> index = new HashMap<>();
		Map<String, Integer> low = new HashMap<>();
		Deque<String> stack = new ArrayDeque<>();
		Set<String> onStack = new HashSet<>();
		List<List<String>> circles = new ArrayList<>();
		for (String start : new TreeSet<>(arrows.keySet())) {
			if (!index.containsKey(start)) {
				connect(start, arrows, index, low, stack, onStack, circles);
			}
		}
		return circles;
	}

	private static void connect(String file, Map<String, Set<String>> arrows, Map<String, Integer> index,
			Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> circles) {
		index.put(file, index.size());
		low.put(file, index.get(file));
		stack.push(file);
		onStack.add(file);
		for (String to : arrows.getOrDefault(file, Set.of())) {
			if (!index.containsKey(to)) {
				connect(to, arrows, index, low, stack, onStack, circles);
				low.put(file, Math.min(low.get(file), low.get(to)));
			}
			else if (onStack.contains(to)) {
				low.put(file, Math.min(low.get(file), index.get(to)));
			}
		}
		if (low.get(file).equals(index.get(file))) {
			List<String> group = new ArrayList<>();
			String member;
			do {
				member = stack.pop();
				onStack.remove(member);
				group.add(member);
			}
			while (!member.equals(file));
			if (group.size() > 1) {
				group.sort(null);
				circles.add(group);
			}
		}
	}

	@Test
	void noFilesImportEachOtherInACircle() throws IOException {
		Map<String, Set<String>> arrows = fileArrows();

		List<List<String>> circles = circles(arrows);

		assertThat(circles)
			.as("files that use each other in a circle (an arrow back up inside a package):"
					+ " move what both need into a file of its own, below both")
			.isEmpty();
	}

	@Test
	void theCircleCheckFindsACircle() {
		Map<String, Set<String>> arrows = Map.of("sweep/Sweep", Set.of("sweep/SweepResult"), "sweep/SweepResult",
				Set.of("sweep/Verdict", "sweep/Sweep"), "sweep/Verdict", Set.of());

		assertThat(circles(arrows)).containsExactly(List.of("sweep/Sweep", "sweep/SweepResult"));
	}

	/**
	 * The suite's schedule and time budget: what a user's load must never run through.
	 */
	static final Set<String> SUITE_MACHINERY = Set.of("junit/Phases", "junit/LoadSlots", "junit/Budget",
			"junit/SuiteHook", "junit/BudgetReport");

	@Test
	void aLoadsPathEntersNoScheduleOrBudget() throws IOException {
		Map<String, Set<String>> arrows = fileArrows();

		Set<String> reached = reachable(arrows, List.of("load/ClosedLoopLoad", "load/OpenLoopLoad", "sweep/Sweep",
				"containers/ServiceContainer", "containers/KitContainers"));

		assertThat(reached).as("files a load, a sweep or a container start reaches").isNotEmpty();
		assertThat(reached).as("the suite's schedule and budget, reached from a user's load: install a hook instead")
			.doesNotContainAnyElementsOf(SUITE_MACHINERY);
	}

	/** Every file {@code from} reaches by arrows, {@code from} included. */
	static Set<String> reachable(Map<String, Set<String>> arrows, List<String> from) {
		Set<String> reached = new TreeSet<>();
		Deque<String> next = new ArrayDeque<>(from);
		while (!next.isEmpty()) {
			String file = next.pop();
			if (reached.add(file)) {
				next.addAll(arrows.getOrDefault(file, Set.of()));
			}
		}
		return reached;
	}

	@Test
	void everyPackageOfTheLibraryHasAFloor() throws IOException {
		try (Stream<Path> packages = Files.list(LIBRARY)) {
			assertThat(packages.filter(Files::isDirectory).map((dir) -> dir.getFileName().toString()))
				.as("a new package needs a floor in LayersTest.FLOORS")
				.allMatch(FLOORS::containsKey);
		}
	}

	@Test
	void noPackageReachesUpToAHigherFloor() throws IOException {
		List<String> upwards = new ArrayList<>();
		try (Stream<Path> files = Files.walk(LIBRARY)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String from = LIBRARY.relativize(file).getName(0).toString();
				Matcher reference = REFERENCE.matcher(Files.readString(file));
				while (reference.find()) {
					String to = reference.group(1);
					if (FLOORS.containsKey(to) && FLOORS.get(to) > FLOORS.get(from)) {
						upwards.add(LIBRARY.relativize(file) + " (" + from + ", floor " + FLOORS.get(from) + ") uses "
								+ to + " (floor " + FLOORS.get(to) + ")");
					}
				}
			}
		}

		assertThat(upwards).as("imports that point up a floor: move the file, not the arrow").isEmpty();
	}

}
