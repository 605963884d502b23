package dev.bottleneckkit.scenarios.lab;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JDBC driver version a lab service can run with, put on its loader path at start (no
 * rebuild). The build copies the jars to {@code target/jdbc-drivers/}
 * (maven-dependency-plugin, {@code package}).
 */
public enum JdbcDriver {

	/**
	 * MySQL Connector/J 8.0.33: {@code synchronized} around socket reads, so it pins on
	 * JDK 21–23.
	 */
	MYSQL_CONNECTOR_J_8_0_33("mysql-connector-j", "8.0.33"),

	/**
	 * MySQL Connector/J 9.7.0: ReentrantLocks since 9.0.0 (Bug #110512), virtual-thread
	 * friendly.
	 */
	MYSQL_CONNECTOR_J_9_7_0("mysql-connector-j", "9.7.0");

	private final String artifact;

	private final String version;

	JdbcDriver(String artifact, String version) {
		this.artifact = artifact;
		this.version = version;
	}

	public String version() {
		return this.version;
	}

	/** The driver's jar; fails naming the build step that makes it when it is missing. */
	public Path jar() {
		Path jar = Path.of(System.getProperty("bottleneck.jdbc-drivers", "target/jdbc-drivers"),
				this.artifact + "-" + this.version + ".jar");
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("JDBC driver " + this + " is missing at " + jar.toAbsolutePath()
					+ ": ./mvnw package copies it there");
		}
		return jar;
	}

	@Override
	public String toString() {
		return this.artifact + " " + this.version;
	}

}
