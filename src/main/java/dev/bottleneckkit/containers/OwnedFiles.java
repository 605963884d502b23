package dev.bottleneckkit.containers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.dockerjava.api.DockerClient;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.testcontainers.images.builder.Transferable;

/**
 * Files copied into a container owned by the user its image runs as (a JMX password file
 * must belong to the JVM's user): a numeric user needs no passwd entry, as the archive
 * carries its ids; a named one Docker resolves in the container's own /etc/passwd
 * (copyUIDGID); no user at all is root, the archive's default.
 */
final class OwnedFiles {

	/** {@code uid} or {@code uid:gid}, as an image's {@code USER} may give them. */
	private static final Pattern NUMERIC_USER = Pattern.compile("(\\d+)(?::(\\d+))?");

	private OwnedFiles() {
	}

	static void copy(DockerClient docker, String containerId, Map<String, Transferable> files, String name) {
		String user = String.valueOf(docker.inspectContainerCmd(containerId).exec().getConfig().getUser());
		Matcher numeric = NUMERIC_USER.matcher(user);
		// A numeric user needs no passwd entry: the archive carries its ids. A named one
		// Docker resolves in
		// the container's own /etc/passwd (copyUIDGID). No user at all is root, the
		// archive's default.
		boolean named = !user.isBlank() && !numeric.matches() && !"null".equals(user);
		int uid = numeric.matches() ? Integer.parseInt(numeric.group(1)) : 0;
		int gid = (numeric.matches() && numeric.group(2) != null) ? Integer.parseInt(numeric.group(2)) : uid;
		ByteArrayOutputStream archive = new ByteArrayOutputStream();
		try (TarArchiveOutputStream tar = new TarArchiveOutputStream(archive)) {
			tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
			for (Map.Entry<String, Transferable> file : files.entrySet()) {
				byte[] bytes = file.getValue().getBytes();
				TarArchiveEntry entry = new TarArchiveEntry(file.getKey().substring(1));
				entry.setSize(bytes.length);
				entry.setMode(file.getValue().getFileMode());
				entry.setUserId(uid);
				entry.setGroupId(gid);
				tar.putArchiveEntry(entry);
				tar.write(bytes);
				tar.closeArchiveEntry();
			}
			tar.finish();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot pack the files for " + name, ex);
		}
		docker.copyArchiveToContainerCmd(containerId)
			.withTarInputStream(new ByteArrayInputStream(archive.toByteArray()))
			.withRemotePath("/")
			.withCopyUIDGID(named)
			.exec();
	}

}
