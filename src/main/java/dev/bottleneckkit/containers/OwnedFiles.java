package dev.bottleneckkit.containers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.dockerjava.api.DockerClient;
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

	/**
	 * A POSIX ustar header of a regular file. Written by hand: the commons-compress a
	 * project's build manages may be older or newer than the one the kit was built
	 * against, and its tar writer changed signatures between them (a Spring Boot 3.5
	 * project failed with {@code NoSuchMethodError … putArchiveEntry}).
	 */
	static byte[] header(String name, int mode, int uid, int gid, long size) {
		byte[] header = new byte[512];
		byte[] path = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
		if (path.length > 100) {
			throw new IllegalArgumentException("a path of at most 100 bytes, was " + name);
		}
		System.arraycopy(path, 0, header, 0, path.length);
		octal(header, 100, 8, mode & 07777);
		octal(header, 108, 8, uid);
		octal(header, 116, 8, gid);
		octal(header, 124, 12, size);
		octal(header, 136, 12, System.currentTimeMillis() / 1000);
		java.util.Arrays.fill(header, 148, 156, (byte) ' ');
		header[156] = '0';
		byte[] magic = "ustar\u000000".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		System.arraycopy(magic, 0, header, 257, magic.length);
		long sum = 0;
		for (byte b : header) {
			sum += b & 0xff;
		}
		octal(header, 148, 7, sum);
		return header;
	}

	/**
	 * {@code value} in octal, zero-padded, NUL-terminated, in {@code length} bytes at
	 * {@code offset}.
	 */
	private static void octal(byte[] header, int offset, int length, long value) {
		String digits = String.format("%0" + (length - 1) + "o", value);
		byte[] ascii = digits.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		System.arraycopy(ascii, 0, header, offset, length - 1);
		header[offset + length - 1] = 0;
	}

	static void copy(DockerClient docker, String containerId, Map<String, Transferable> files, String name) {
		String user = String.valueOf(docker.inspectContainerCmd(containerId).exec().getConfig().getUser());
		Matcher numeric = NUMERIC_USER.matcher(user);
		// A numeric user needs no passwd entry: the archive carries its ids. A named one
		// Docker resolves in the container's own /etc/passwd (copyUIDGID). No user at all
		// is root, the archive's default.
		boolean named = !user.isBlank() && !numeric.matches() && !"null".equals(user);
		int uid = numeric.matches() ? Integer.parseInt(numeric.group(1)) : 0;
		int gid = (numeric.matches() && numeric.group(2) != null) ? Integer.parseInt(numeric.group(2)) : uid;
		ByteArrayOutputStream archive = new ByteArrayOutputStream();
		for (Map.Entry<String, Transferable> file : files.entrySet()) {
			byte[] bytes = file.getValue().getBytes();
			archive
				.writeBytes(header(file.getKey().substring(1), file.getValue().getFileMode(), uid, gid, bytes.length));
			archive.writeBytes(bytes);
			archive.writeBytes(new byte[(512 - bytes.length % 512) % 512]);
		}
		// Two empty blocks end a tar archive.
		archive.writeBytes(new byte[1024]);
		docker.copyArchiveToContainerCmd(containerId)
			.withTarInputStream(new ByteArrayInputStream(archive.toByteArray()))
			.withRemotePath("/")
			.withCopyUIDGID(named)
			.exec();
	}

}
