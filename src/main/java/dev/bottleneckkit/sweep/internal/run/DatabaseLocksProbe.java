package dev.bottleneckkit.sweep.internal.run;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.probe.GaugeTimeline.Sample;
import org.testcontainers.containers.JdbcDatabaseContainer;

/**
 * The database's own waits over a step: every {@value #INTERVAL_MILLIS} ms, its lock
 * tables read over a connection of its own (root's, with the container's password), by
 * lock: the transactions waiting for it and the transactions that hold it (those blocking
 * a waiter without waiting themselves). MySQL 8's
 * {@code performance_schema.data_lock_waits} where it has them, else MariaDB's
 * {@code information_schema.innodb_lock_waits}. Its series join the service's meters as
 * {@value #WAITING} and {@value #HOLDING}, each followed by the lock:
 * {@code `stock`.`counters` PRIMARY (RECORD)}; and {@value #HELD}, the transactions
 * holding row locks while running (not waiting), waited for or not: at one user, where
 * nothing waits, its mean over the throughput is how long a transaction holds its row
 * locks (the utilization law).
 */
public final class DatabaseLocksProbe implements StepProbe {

	static final long INTERVAL_MILLIS = 100;

	/** The series of a lock's waiting transactions: this, a space, the lock. */
	public static final String WAITING = "database.lock.waiting";

	/** The series of a lock's holding transactions: this, a space, the lock. */
	public static final String HOLDING = "database.lock.holding";

	/**
	 * The series of the transactions holding row locks while running, whoever waits for
	 * them.
	 */
	public static final String HELD = "database.lock.held";

	/** MySQL 8 and MariaDB: the running transactions holding row locks. */
	private static final String HELD_QUERY = """
			SELECT COUNT(*) FROM information_schema.innodb_trx
			WHERE trx_state = 'RUNNING' AND trx_rows_locked > 0""";

	/** MySQL 8: the waits of performance_schema, the holders those not waiting. */
	private static final String MYSQL = """
			SELECT CONCAT('`', l.OBJECT_SCHEMA, '`.`', l.OBJECT_NAME, '` ', COALESCE(l.INDEX_NAME, ''), ' (',
			       l.LOCK_TYPE, ')'),
			       COUNT(DISTINCT w.REQUESTING_ENGINE_TRANSACTION_ID),
			       COUNT(DISTINCT CASE WHEN t.trx_state <> 'LOCK WAIT' THEN w.BLOCKING_ENGINE_TRANSACTION_ID END)
			FROM performance_schema.data_lock_waits w
			JOIN performance_schema.data_locks l ON l.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID
			JOIN information_schema.innodb_trx t ON t.trx_id = w.BLOCKING_ENGINE_TRANSACTION_ID
			GROUP BY 1""";

	/** MariaDB: the same from information_schema's InnoDB tables. */
	private static final String MARIADB = """
			SELECT CONCAT(l.lock_table, ' ', COALESCE(l.lock_index, ''), ' (', l.lock_type, ')'),
			       COUNT(DISTINCT w.requesting_trx_id),
			       COUNT(DISTINCT CASE WHEN t.trx_state <> 'LOCK WAIT' THEN w.blocking_trx_id END)
			FROM information_schema.innodb_lock_waits w
			JOIN information_schema.innodb_locks l ON l.lock_id = w.requested_lock_id
			JOIN information_schema.innodb_trx t ON t.trx_id = w.blocking_trx_id
			GROUP BY 1""";

	private final Connection connection;

	private final String query;

	private final List<long[]> times = new ArrayList<>();

	private final List<Map<String, int[]>> reads = new ArrayList<>();

	private final List<Integer> held = new ArrayList<>();

	private Thread sampler;

	private DatabaseLocksProbe(Connection connection, String query) {
		this.connection = connection;
		this.query = query;
	}

	/** A probe on {@code database}'s lock tables, or why it cannot read them. */
	static DatabaseLocksProbe on(JdbcDatabaseContainer<?> database) {
		String url = database.getJdbcUrl();
		try {
			Connection connection = DriverManager.getConnection(url, "root", database.getPassword());
			for (String query : List.of(MYSQL, MARIADB)) {
				try (Statement statement = connection.createStatement()) {
					statement.executeQuery(query).close();
					return new DatabaseLocksProbe(connection, query);
				}
				catch (SQLException ex) {
					// not this database's tables: the next
				}
			}
			connection.close();
			throw new StepProbe.Blind("the database's locks: neither MySQL 8's performance_schema.data_lock_waits"
					+ " nor MariaDB's information_schema.innodb_lock_waits answered at " + url);
		}
		catch (SQLException ex) {
			throw StepProbe.Blind.because("the database's locks: root could not connect at " + url + " (%s)", ex);
		}
	}

	@Override
	public void begin(Plan plan) {
		synchronized (this.reads) {
			this.times.clear();
			this.reads.clear();
			this.held.clear();
		}
		this.sampler = Thread.ofPlatform().daemon().name("bottleneck-kit-database-locks").start(this::sample);
	}

	private void sample() {
		while (!Thread.currentThread().isInterrupted()) {
			long at = System.nanoTime();
			Map<String, int[]> locks = new LinkedHashMap<>();
			int holding;
			try (Statement statement = this.connection.createStatement()) {
				try (ResultSet rows = statement.executeQuery(this.query)) {
					while (rows.next()) {
						locks.put(rows.getString(1), new int[] { rows.getInt(2), rows.getInt(3) });
					}
				}
				try (ResultSet rows = statement.executeQuery(HELD_QUERY)) {
					holding = rows.next() ? rows.getInt(1) : 0;
				}
			}
			catch (SQLException ex) {
				return;
			}
			synchronized (this.reads) {
				this.times.add(new long[] { at });
				this.reads.add(locks);
				this.held.add(holding);
			}
			try {
				Thread.sleep(INTERVAL_MILLIS);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		stop();
		Map<String, List<Sample>> series = new LinkedHashMap<>();
		synchronized (this.reads) {
			List<String> locks = this.reads.stream().flatMap((read) -> read.keySet().stream()).distinct().toList();
			for (int i = 0; i < this.reads.size(); i++) {
				long at = this.times.get(i)[0];
				if (at < window.windowStart() || at > window.windowEnd()) {
					continue;
				}
				Duration offset = Duration.ofNanos(at - window.windowStart());
				series.computeIfAbsent(HELD, (name) -> new ArrayList<>()).add(new Sample(offset, this.held.get(i)));
				for (String lock : locks) {
					int[] read = this.reads.get(i).getOrDefault(lock, new int[2]);
					series.computeIfAbsent(WAITING + " " + lock, (name) -> new ArrayList<>())
						.add(new Sample(offset, read[0]));
					series.computeIfAbsent(HOLDING + " " + lock, (name) -> new ArrayList<>())
						.add(new Sample(offset, read[1]));
				}
			}
		}
		readings.database(series);
	}

	private void stop() {
		Optional.ofNullable(this.sampler).ifPresent((thread) -> {
			thread.interrupt();
			try {
				thread.join(Duration.ofSeconds(2));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		this.sampler = null;
	}

	@Override
	public void close() {
		stop();
		try {
			this.connection.close();
		}
		catch (SQLException ex) {
			// closing a connection to a database going away
		}
	}

}
