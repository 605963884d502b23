package dev.bottleneckkit.containers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tar header the kit writes by hand (no commons-compress writer, whose signatures
 * differ between the versions projects manage) reads back as a tar reader reads it.
 */
class OwnedFilesTest {

	@Test
	void aFileOwnedByTheServiceUserReadsBackWithItsModeOwnerAndBytes() throws Exception {
		byte[] content = "bottleneck-kit secret\n".getBytes(StandardCharsets.UTF_8);
		ByteArrayOutputStream archive = new ByteArrayOutputStream();
		archive.writeBytes(OwnedFiles.header("tmp/bottleneck-kit-jmx.password", 0600, 10001, 10001, content.length));
		archive.writeBytes(content);
		archive.writeBytes(new byte[512 - content.length]);
		archive.writeBytes(new byte[1024]);

		try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(archive.toByteArray()))) {
			TarArchiveEntry entry = tar.getNextEntry();
			assertThat(entry.getName()).isEqualTo("tmp/bottleneck-kit-jmx.password");
			assertThat(entry.getMode() & 07777).isEqualTo(0600);
			assertThat(entry.getLongUserId()).isEqualTo(10001);
			assertThat(entry.getLongGroupId()).isEqualTo(10001);
			assertThat(tar.readAllBytes()).isEqualTo(content);
			assertThat(tar.getNextEntry()).isNull();
		}
	}

}
