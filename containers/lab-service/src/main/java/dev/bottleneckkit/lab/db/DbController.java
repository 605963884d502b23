package dev.bottleneckkit.lab.db;

import java.time.Duration;
import java.util.Map;

import dev.bottleneckkit.lab.Threads;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The database route (profile {@code db}): {@code GET /db/sleep?seconds=1} runs
 * {@code SELECT SLEEP(1)} through Hikari and whichever JDBC driver is on the loader path.
 * The query blocks in the driver's socket read, which is where Connector/J 8.0 holds a
 * monitor and pins a virtual thread on JDK 21.
 */
@RestController
@Profile("db")
@RequestMapping("/db")
class DbController {

	private static final double MAX_SECONDS = 60;

	private final JdbcTemplate jdbc;

	DbController(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/sleep")
	Map<String, Object> sleep(@RequestParam(defaultValue = "1") double seconds) {
		if (!(seconds >= 0 && seconds <= MAX_SECONDS)) {
			throw new IllegalArgumentException("seconds must be between 0 and " + MAX_SECONDS + ", was " + seconds);
		}
		long started = System.nanoTime();
		Integer result = this.jdbc.queryForObject("SELECT SLEEP(?)", Integer.class, seconds);
		return Map.of("result", result, "tookMs", Duration.ofNanos(System.nanoTime() - started).toMillis(), "thread",
				Threads.current());
	}

	/**
	 * No pooled connection within Hikari's {@code connectionTimeout}: 503
	 * {@code db-pool-timeout}.
	 */
	@ExceptionHandler(CannotGetJdbcConnectionException.class)
	ResponseEntity<Map<String, String>> poolTimeout(CannotGetJdbcConnectionException ex) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.body(Map.of("error", "db-pool-timeout", "detail", String.valueOf(ex.getMessage())));
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException ex) {
		return ResponseEntity.badRequest().body(Map.of("error", "bad-request", "detail", ex.getMessage()));
	}

}
