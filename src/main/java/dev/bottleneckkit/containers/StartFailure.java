package dev.bottleneckkit.containers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import dev.bottleneckkit.images.KitImages;
import dev.bottleneckkit.internal.Knobs;
import org.testcontainers.containers.ContainerFetchException;

/**
 * One line that says why a service did not start and what to change, with its last log
 * lines.
 */
final class StartFailure {

	private StartFailure() {
	}

	static String explain(RuntimeException failure, String name, String image, String healthPath, int port,
			Duration startupTimeout, ContainerLogs logs) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ContainerFetchException) {
				return "Service " + name + ": image " + image + " is not on this Docker engine and could not be pulled"
						+ " (" + rootMessage(cause) + "). Build or pull it, or name another image"
						+ (KitImages.isKitImage(image)
								? "; the kit's own images switch with -D" + KitImages.SWITCH + "=offline" : "");
			}
			if (String.valueOf(cause.getMessage()).contains("Timed out waiting")) {
				return "Service " + name + " (" + image + ") did not answer 200 on " + healthPath + " (port " + port
						+ ") within " + Knobs.human(startupTimeout)
						+ ": fix withHealthPath/withPort, or give it longer with withStartupTimeout. Its last log lines:"
						+ lastLogLines(logs, 8);
			}
		}
		return "Service " + name + " (" + image + ") did not start: " + rootMessage(failure) + ". Its last log lines:"
				+ lastLogLines(logs, 8);
	}

	private static String lastLogLines(ContainerLogs logs, int count) {
		if (logs == null || !Files.isRegularFile(logs.file())) {
			return " (none)";
		}
		try {
			List<String> lines = Files.readAllLines(logs.file(), StandardCharsets.UTF_8);
			return lines.subList(Math.max(0, lines.size() - count), lines.size())
				.stream()
				.map((line) -> "\n  | " + line)
				.collect(Collectors.joining("", "", "\n  (all of it: " + logs.file() + ")"));
		}
		catch (IOException ex) {
			return " (see " + logs.file() + ")";
		}
	}

	private static String rootMessage(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
