package dev.bottleneckkit.lab.downstream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import tools.jackson.databind.json.JsonMapper;
import jakarta.servlet.http.HttpServletResponse;

import dev.bottleneckkit.lab.Threads;
import dev.bottleneckkit.lab.probe.InFlightTracker;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The downstream's work: {@code /work/sleep} blocks its thread for a latency (as a slow
 * dependency or a database call does), {@code /work/steps} does the same in steps and
 * notices when its client has gone, {@code /work/fail} waits and then fails,
 * {@code /work/cpu} burns CPU. Each reports the thread that served it.
 */
@RestController
@Profile("downstream")
@RequestMapping("/work")
class DownstreamController {

	/** Longest step of {@code /work/steps}. */
	static final Duration MAX_STEP = Duration.ofSeconds(1);

	private final DownstreamProperties properties;

	private final InFlightTracker tracker;

	private final JsonMapper json;

	DownstreamController(DownstreamProperties properties, InFlightTracker tracker, JsonMapper json) {
		this.properties = properties;
		this.tracker = tracker;
		this.json = json;
	}

	/**
	 * Blocks for {@code latency} (e.g. {@code 500ms}, {@code 2s}), or the configured
	 * default.
	 */
	@GetMapping("/sleep")
	SleepReply sleep(@RequestParam(required = false) String latency) throws InterruptedException {
		Duration wait = (latency != null)
				? DownstreamProperties.checkLatency("latency", DurationStyle.detectAndParse(latency))
				: this.properties.latency();
		long started = System.nanoTime();
		Thread.sleep(wait);
		return new SleepReply(wait.toMillis(), (System.nanoTime() - started) / 1_000_000, Threads.current());
	}

	/**
	 * Blocks for {@code latency}, then fails with 503 {@code branch-failed}: a dependency
	 * that answers, late, that it cannot.
	 */
	@GetMapping("/fail")
	ResponseEntity<Map<String, String>> fail(@RequestParam(required = false) String latency)
			throws InterruptedException {
		Duration wait = (latency != null)
				? DownstreamProperties.checkLatency("latency", DurationStyle.detectAndParse(latency))
				: this.properties.latency();
		Thread.sleep(wait);
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.body(Map.of("error", "branch-failed", "detail", "failed after " + wait.toMillis() + " ms"));
	}

	/**
	 * Works for {@code latency} in steps of {@code step} (default 50 ms), like a job that
	 * checks for cancellation between units of work. After each step it writes one space
	 * and flushes (whitespace before the JSON answer, so the body stays valid JSON); once
	 * that write fails, the client has closed the connection, so the work stops and the
	 * in-flight probe counts the request as abandoned. A client that cancels is seen
	 * within about two steps: the first write after the close still succeeds, the next
	 * one meets the peer's reset.
	 */
	@GetMapping("/steps")
	void steps(@RequestParam(required = false) String latency, @RequestParam(required = false) String step,
			HttpServletResponse response) throws IOException, InterruptedException {
		Duration work = (latency != null)
				? DownstreamProperties.checkLatency("latency", DurationStyle.detectAndParse(latency))
				: this.properties.latency();
		Duration unit = (step != null) ? checkStep(DurationStyle.detectAndParse(step)) : Duration.ofMillis(50);
		long started = System.nanoTime();
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		ServletOutputStream out = response.getOutputStream();
		int steps = 0;
		for (Duration left = work; left.isPositive(); left = left.minus(unit)) {
			Thread.sleep(left.compareTo(unit) < 0 ? left : unit);
			steps++;
			try {
				out.write(' ');
				out.flush();
			}
			catch (IOException clientGone) {
				this.tracker.abandoned();
				return;
			}
		}
		out.write(this.json.writeValueAsBytes(
				new StepsReply(work.toMillis(), steps, (System.nanoTime() - started) / 1_000_000, Threads.current())));
	}

	private static Duration checkStep(Duration step) {
		if (step.toMillis() < 1 || step.compareTo(MAX_STEP) > 0) {
			throw new IllegalArgumentException(
					"step must be between 1 ms and " + MAX_STEP.toMillis() + " ms, was " + step.toMillis() + " ms");
		}
		return step;
	}

	/** Runs {@code iterations} chained SHA-256 rounds, or the configured default. */
	@GetMapping("/cpu")
	CpuReply cpu(@RequestParam(required = false) Long iterations) throws NoSuchAlgorithmException {
		long rounds = (iterations != null) ? DownstreamProperties.checkIterations("iterations", iterations)
				: this.properties.cpuIterations();
		long started = System.nanoTime();
		MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
		byte[] digest = "bottleneck-kit".getBytes(StandardCharsets.UTF_8);
		for (long i = 0; i < rounds; i++) {
			digest = sha256.digest(digest);
		}
		return new CpuReply(rounds, HexFormat.of().formatHex(digest, 0, 8), (System.nanoTime() - started) / 1_000_000,
				Threads.current());
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<Map<String, String>> badKnob(IllegalArgumentException ex) {
		return ResponseEntity.badRequest().body(Map.of("error", "bad-request", "detail", ex.getMessage()));
	}

	record SleepReply(long latencyMs, long sleptMs, Threads thread) {
	}

	record StepsReply(long latencyMs, int steps, long tookMs, Threads thread) {
	}

	record CpuReply(long iterations, String digest, long tookMs, Threads thread) {
	}

}
