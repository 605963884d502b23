package dev.bottleneckkit.sweep.internal.waits;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPInputStream;

import dev.bottleneckkit.probe.ThreadDump;

/**
 * The stock routes' dumps kept gzipped under {@code stock/}, read as the probe reads a
 * dump.
 */
public final class StockDumps {

	private StockDumps() {
	}

	/** The dump {@code name} ({@code label-4}, {@code async-5}). */
	public static ThreadDump read(String name) {
		try (InputStream packed = new GZIPInputStream(
				StockDumps.class.getResourceAsStream("stock/" + name + ".json.gz"))) {
			Path file = Files.createTempFile("dump-", ".json");
			file.toFile().deleteOnExit();
			Files.copy(packed, file, StandardCopyOption.REPLACE_EXISTING);
			return ThreadDump.read(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
