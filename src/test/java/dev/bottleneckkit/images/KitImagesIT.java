package dev.bottleneckkit.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.Stream;

import dev.bottleneckkit.containers.KitContainers;
import dev.bottleneckkit.containers.KitResources;
import dev.bottleneckkit.internal.ReportWriter;
import dev.bottleneckkit.junit.Scenario;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database images the DB scenarios stand on, whichever set {@link KitImages} selects: MySQL answers
 * {@code SELECT SLEEP(1)} in a second through Testcontainers' {@code MySQLContainer}, and Toxiproxy in front
 * of it adds exactly the latency it is told to.
 */
@Scenario(id = "K1", title = "Kit images: MySQL answers SELECT SLEEP(n) behind Toxiproxy")
class KitImagesIT {

	static final Duration SLEEP = Duration.ofSeconds(1);

	static final Duration TOXIC_LATENCY = Duration.ofMillis(300);

	static final Network network = KitResources.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	@Test
	void mysqlSleepsAsLongAsItIsAskedAndToxiproxyAddsItsLatency() throws Exception {
		Proxy proxy = KitContainers.proxy(toxiproxy, "mysql", 8666, "mysql:3306");
		String viaProxy = "jdbc:mysql://" + toxiproxy.getHost() + ":" + toxiproxy.getMappedPort(8666) + "/"
				+ mysql.getDatabaseName();

		Duration direct = timeSleep(mysql.getJdbcUrl());
		proxy.toxics().latency("db-latency", ToxicDirection.DOWNSTREAM, TOXIC_LATENCY.toMillis());
		Duration proxied = timeSleep(viaProxy);

		assertThat(direct).as("SELECT SLEEP(1) on the %s image", KitImages.mysql())
			.isBetween(SLEEP, SLEEP.plusMillis(250));
		// A toxic can only add time: the proxied query takes at least the sleep and the toxic's latency, and not
		// much more than the direct one plus it (each bound holds however busy the machine is).
		assertThat(proxied).as("a %d ms latency toxic adds its latency to the query (direct: %d ms)", TOXIC_LATENCY.toMillis(),
				direct.toMillis())
			.isBetween(SLEEP.plus(TOXIC_LATENCY), direct.plus(TOXIC_LATENCY).plusMillis(250));
	}

	@Test
	void mysqlHasARandomPasswordThatNoLogOrReportShows() throws IOException {
		String password = mysql.getPassword();

		assertThat(password).as("not Testcontainers' fixed 'test'").isNotEqualTo("test").hasSizeGreaterThanOrEqualTo(20);
		assertThat(KitContainers.mysql(network).getPassword()).as("each container gets a password of its own")
			.isNotEqualTo(password);
		assertThat(mysql.getLogs()).as("the database's log").doesNotContain(password);
		if (Files.isDirectory(ReportWriter.directory())) {
			try (Stream<Path> files = Files.walk(ReportWriter.directory())) {
				for (Path file : files.filter(Files::isRegularFile).toList()) {
					String content;
					try {
						content = Files.readString(file, StandardCharsets.ISO_8859_1);
					}
					catch (NoSuchFileException ex) {
						continue; // a scenario running beside this one replaced it
					}
					assertThat(content).as("kept under target: %s", file).doesNotContain(password);
				}
			}
		}
	}

	private static Duration timeSleep(String jdbcUrl) throws Exception {
		try (Connection connection = DriverManager.getConnection(jdbcUrl, mysql.getUsername(), mysql.getPassword());
				Statement statement = connection.createStatement()) {
			long started = System.nanoTime();
			try (ResultSet rows = statement.executeQuery("SELECT SLEEP(" + SLEEP.toSeconds() + ")")) {
				rows.next();
			}
			return Duration.ofNanos(System.nanoTime() - started);
		}
	}

}
