package dev.bottleneckkit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the report and the evidence (container logs, {@code .jfr} files, thread dumps)
 * go: system property {@value #PROPERTY}, default {@code target/bottleneck-report}. When
 * that directory cannot be written the scenarios still run: the evidence goes to a
 * directory under {@code java.io.tmpdir} instead, and one line says so, once.
 */
public final class ReportDirectory {

	/** The system property that names the directory. */
	public static final String PROPERTY = "bottleneck.report-dir";

	private static final Logger log = LoggerFactory.getLogger(ReportDirectory.class);

	private static Resolution resolved;

	private ReportDirectory() {
	}

	/** The directory in use for this JVM, created if need be. */
	public static synchronized Path get() {
		if (resolved == null) {
			resolved = resolve(Path.of(System.getProperty(PROPERTY, "target/bottleneck-report")));
			if (resolved.problem() != null) {
				log.warn(resolved.problem());
			}
		}
		return resolved.directory();
	}

	/** {@code name} below the directory in use, created. */
	public static Path subdirectory(String name) {
		Path dir = get().resolve(name);
		try {
			return Files.createDirectories(dir);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot create " + dir.toAbsolutePath() + ": " + ex, ex);
		}
	}

	/**
	 * {@code configured} when it can be written, else a fallback under
	 * {@code java.io.tmpdir} and the line that says why.
	 */
	static Resolution resolve(Path configured) {
		String reason;
		try {
			Files.createDirectories(configured);
			if (Files.isWritable(configured)) {
				return new Resolution(configured, null);
			}
			reason = "not writable";
		}
		catch (IOException ex) {
			reason = ex.getClass().getSimpleName() + ": " + ex.getMessage();
		}
		Path fallback = Path.of(System.getProperty("java.io.tmpdir"),
				"bottleneck-kit-report-" + ProcessHandle.current().pid());
		try {
			Files.createDirectories(fallback);
		}
		catch (IOException ex) {
			throw new IllegalStateException("neither the report directory " + configured.toAbsolutePath() + " nor "
					+ fallback + " can be written: set -D" + PROPERTY + " to a writable directory", ex);
		}
		return new Resolution(fallback,
				"The report directory " + configured.toAbsolutePath() + " cannot be written (" + reason
						+ "): the report and evidence go to " + fallback + "; set -D" + PROPERTY
						+ " to a writable directory");
	}

	/**
	 * Where the report goes, and why not where it was asked to, if so.
	 *
	 * @param directory the directory in use
	 * @param problem null, or the one line that says the configured directory could not
	 * be written
	 */
	record Resolution(Path directory, String problem) {
	}

}
