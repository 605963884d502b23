package dev.bottleneckkit.lab.downstream;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import dev.bottleneckkit.lab.Threads;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The downstream's work: {@code /work/sleep} blocks its thread for a latency (as a slow dependency or a
 * database call does), {@code /work/cpu} burns CPU. Both report the thread that served them.
 */
@RestController
@Profile("downstream")
@RequestMapping("/work")
class DownstreamController {

	private final DownstreamProperties properties;

	DownstreamController(DownstreamProperties properties) {
		this.properties = properties;
	}

	/** Blocks for {@code latency} (e.g. {@code 500ms}, {@code 2s}), or the configured default. */
	@GetMapping("/sleep")
	SleepReply sleep(@RequestParam(required = false) String latency) throws InterruptedException {
		Duration wait = (latency != null)
				? DownstreamProperties.checkLatency("latency", DurationStyle.detectAndParse(latency))
				: this.properties.latency();
		long started = System.nanoTime();
		Thread.sleep(wait);
		return new SleepReply(wait.toMillis(), (System.nanoTime() - started) / 1_000_000, Threads.current());
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

	record CpuReply(long iterations, String digest, long tookMs, Threads thread) {
	}

}
