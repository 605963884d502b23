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
import dev.bottleneckkit.internal.ContainerCpu;
import dev.bottleneckkit.internal.ReportDirectory;
import dev.bottleneckkit.internal.RunHook;
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
 * The database images the DB scenarios stand on, whichever set {@link KitImages} selects:
 * MySQL answers {@code SELECT SLEEP(1)} in a second through Testcontainers'
 * {@code MySQLContainer}, and Toxiproxy in front of it adds exactly the latency it is
 * told to.
 */
@Scenario(id = "K1", title = "Kit images: MySQL answers SELECT SLEEP(n) behind Toxiproxy")
class KitImagesIT {

	static final Duration SLEEP = Duration.ofSeconds(1);

	static final Duration TOXIC_LATENCY = Duration.ofMillis(300);

	static final Network network = KitContainers.newNetwork();

	@Container
	static final MySQLContainer mysql = KitContainers.mysql(network);

	@Container
	static final ToxiproxyContainer toxiproxy = KitContainers.toxiproxy(network);

	@Test
	void mysqlSleepsAsLongAsItIsAskedAndToxiproxyAddsItsLatency() throws Exception {
		Proxy proxy = KitContainers.proxy(toxiproxy, "mysql", 8666, "mysql:3306");
		String viaProxy = "jdbc:mysql://" + toxiproxy.getHost() + ":" + toxiproxy.getMappedPort(8666) + "/"
				+ mysql.getDatabaseName();

		Timing direct = timeSleep(mysql.getJdbcUrl());
		proxy.toxics().latency("db-latency", ToxicDirection.DOWNSTREAM, TOXIC_LATENCY.toMillis());
		Timing proxied = timeSleep(viaProxy);

		// Less the round trip of SLEEP(0) on the same connection: only the database's own
		// time is left.
		assertThat(direct.query().minus(direct.roundTrip()))
			.as("SELECT SLEEP(1) on the %s image, less a round trip (%s)", KitImages.mysql(), direct)
			.isBetween(SLEEP.minusMillis(20), SLEEP.plusMillis(250));
		// A toxic can only add time: the proxied query takes at least the sleep and the
		// toxic's latency beyond a direct round trip, and not much more than the direct
		// query plus the toxic.
		assertThat(proxied.query())
			.as("a %d ms latency toxic adds its latency to the query (direct: %s, proxied: %s)",
					TOXIC_LATENCY.toMillis(), direct, proxied)
			.isBetween(SLEEP.plus(TOXIC_LATENCY).plus(direct.roundTrip()).minusMillis(20),
					direct.query().plus(TOXIC_LATENCY).plusMillis(250));
	}

	/**
	 * Toxiproxy's image has no shell (FROM scratch), as distroless service images have
	 * none.
	 */
	@Test
	void theCpuOfAContainerWithoutAShellComesFromTheEngine() throws Exception {
		ContainerCpu cpu = ContainerCpu.on(toxiproxy);

		Duration before = cpu.used();
		Duration after = cpu.used();

		assertThat(before).as("the engine's figure for a running container").isPositive();
		assertThat(after).as("and it only grows").isGreaterThanOrEqualTo(before);
	}

	@Test
	void mysqlHasARandomPasswordThatNoLogOrReportShows() throws IOException {
		String password = mysql.getPassword();

		assertThat(password).as("not Testcontainers' fixed 'test'")
			.isNotEqualTo("test")
			.hasSizeGreaterThanOrEqualTo(20);
		assertThat(KitContainers.mysql(network).getPassword()).as("each container gets a password of its own")
			.isNotEqualTo(password);
		assertThat(mysql.getLogs()).as("the database's log").doesNotContain(password);
		if (Files.isDirectory(ReportDirectory.get())) {
			try (Stream<Path> files = Files.walk(ReportDirectory.get())) {
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

	/**
	 * A query's time and the round trip of {@code SELECT SLEEP(0)} on the same warmed
	 * connection just before it.
	 */
	record Timing(Duration roundTrip, Duration query) {

		@Override
		public String toString() {
			return "query " + this.query.toMillis() + " ms, round trip " + this.roundTrip.toMillis() + " ms";
		}

	}

	/**
	 * {@code SELECT SLEEP(1)} on a warmed connection, and the shortest of three
	 * {@code SELECT SLEEP(0)} round trips before it. Timed as a load (the run's hook), so
	 * a container starting beside it does not stretch it.
	 */
	private static Timing timeSleep(String jdbcUrl) throws Exception {
		try (Connection connection = DriverManager.getConnection(jdbcUrl, mysql.getUsername(), mysql.getPassword());
				Statement statement = connection.createStatement();
				RunHook.Load timing = RunHook.installed().load("timing SELECT SLEEP on " + jdbcUrl, 1)) {
			Duration roundTrip = Duration.ofDays(1);
			for (int i = 0; i < 3; i++) {
				Duration took = time(statement, "SELECT SLEEP(0)");
				roundTrip = (took.compareTo(roundTrip) < 0) ? took : roundTrip;
			}
			return new Timing(roundTrip, time(statement, "SELECT SLEEP(" + SLEEP.toSeconds() + ")"));
		}
	}

	private static Duration time(Statement statement, String query) throws Exception {
		long started = System.nanoTime();
		try (ResultSet rows = statement.executeQuery(query)) {
			rows.next();
		}
		return Duration.ofNanos(System.nanoTime() - started);
	}

}
