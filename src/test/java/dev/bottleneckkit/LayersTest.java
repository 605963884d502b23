package dev.bottleneckkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library's packages as floors, each using only its own floor and the ones below: the
 * JUnit integration (with the report) and the assertions on top, then the sweep, the
 * probes and models, loads and containers, images, and {@code internal} at the ground. An
 * arrow upwards means a file sits on the wrong floor.
 */
class LayersTest {

	/** Package to floor; a package may use packages on its floor or below. */
	static final Map<String, Integer> FLOORS = Map.of("internal", 0, "images", 1, "load", 2, "containers", 2, "model",
			3, "probe", 3, "sweep", 4, "baseline", 5, "assertions", 5, "junit", 5);

	private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.bottleneckkit\\.([a-z]+)\\.");

	private static final Path LIBRARY = Path.of("src/main/java/dev/bottleneckkit");

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
