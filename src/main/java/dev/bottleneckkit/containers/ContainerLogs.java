package dev.bottleneckkit.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

import dev.bottleneckkit.internal.ReportDirectory;
import org.testcontainers.containers.output.OutputFrame;

/**
 * Writes a container's output to {@code target/bottleneck-report/logs/<name>.log}:
 * evidence after a failure.
 */
final class ContainerLogs implements Consumer<OutputFrame> {

	private final Path file;

	private ContainerLogs(Path file) {
		this.file = file;
	}

	/** A consumer appending to the log file named {@code name}. */
	static ContainerLogs toFile(String name) {
		Path dir = ReportDirectory.subdirectory("logs");
		try {
			Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + ".log");
			Files.deleteIfExists(file);
			return new ContainerLogs(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Path file() {
		return this.file;
	}

	@Override
	public synchronized void accept(OutputFrame frame) {
		if (frame.getBytes() == null) {
			return;
		}
		try {
			Files.write(this.file, frame.getBytes(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write container log " + this.file, ex);
		}
	}

	@Override
	public String toString() {
		return this.file.toString();
	}

}
