package dev.bottleneckkit.load;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.RunHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open-loop load: requests arrive at a constant rate whether or not earlier ones have
 * answered, as users of a public service do. Latency is measured from each request's
 * <em>intended</em> start, so time a request spends waiting behind a stalled service (or
 * a late scheduler) counts, as wrk2 does: no coordinated omission.
 *
 * <pre>{@code
 * LoadResult result = OpenLoopLoad.ratePerSecond(50)
 *     .maxOutstanding(500)
 *     .forDuration(Duration.ofSeconds(10))
 *     .run(caller.uri("/call/sleep"));
 * }</pre>
 *
 * At most {@code maxOutstanding} requests are in flight; an arrival beyond that is not
 * sent and counts as the error {@code outstanding-limit}, so a dead service cannot
 * exhaust the test JVM.
 */
public final class OpenLoopLoad {

	private static final Logger log = LoggerFactory.getLogger(OpenLoopLoad.class);

	public static final int DEFAULT_MAX_OUTSTANDING = 1000;

	private final double rate;

	private final int maxOutstanding;

	private final Duration warmUp;

	private final Duration duration;

	private final Duration requestTimeout;

	private final String name;

	private OpenLoopLoad(double rate, int maxOutstanding, Duration warmUp, Duration duration, Duration requestTimeout,
			String name) {
		this.rate = rate;
		this.maxOutstanding = maxOutstanding;
		this.warmUp = warmUp;
		this.duration = duration;
		this.requestTimeout = requestTimeout;
		this.name = name;
	}

	/**
	 * Requests per second, 0.1 to 100 000; 10 s after a 2 s warm-up, at most 1000
	 * outstanding, unless told.
	 */
	public static OpenLoopLoad ratePerSecond(double rate) {
		return new OpenLoopLoad(Knobs.between("rate", rate, 0.1, 100_000.0), DEFAULT_MAX_OUTSTANDING,
				ClosedLoopLoad.DEFAULT_WARM_UP, Duration.ofSeconds(10), ClosedLoopLoad.DEFAULT_REQUEST_TIMEOUT,
				"open load");
	}

	/**
	 * Most requests in flight at once, 1 to 10 000; arrivals beyond it are counted, not
	 * sent.
	 */
	public OpenLoopLoad maxOutstanding(int maxOutstanding) {
		return new OpenLoopLoad(this.rate, Knobs.between("maxOutstanding", maxOutstanding, 1, 10_000), this.warmUp,
				this.duration, this.requestTimeout, this.name);
	}

	/** Time left out of the figures at the start, 0 to 10 min. */
	public OpenLoopLoad warmUp(Duration warmUp) {
		return new OpenLoopLoad(this.rate, this.maxOutstanding,
				Knobs.between("warmUp", warmUp, Duration.ZERO, Duration.ofMinutes(10)), this.duration,
				this.requestTimeout, this.name);
	}

	/** Length of the measurement window after warm-up, 1 s to 30 min. */
	public OpenLoopLoad forDuration(Duration duration) {
		return new OpenLoopLoad(this.rate, this.maxOutstanding, this.warmUp,
				Knobs.between("duration", duration, Duration.ofSeconds(1), Duration.ofMinutes(30)), this.requestTimeout,
				this.name);
	}

	/**
	 * How long one request may take before it counts as a {@code timeout} error, 1 ms to
	 * 10 min.
	 */
	public OpenLoopLoad requestTimeout(Duration requestTimeout) {
		return new OpenLoopLoad(this.rate, this.maxOutstanding, this.warmUp, this.duration,
				Knobs.between("requestTimeout", requestTimeout, Duration.ofMillis(1), Duration.ofMinutes(10)),
				this.name);
	}

	/** A name for logs and reports. */
	public OpenLoopLoad named(String name) {
		return new OpenLoopLoad(this.rate, this.maxOutstanding, this.warmUp, this.duration, this.requestTimeout, name);
	}

	/**
	 * Runs the load against {@code target} and blocks until the last request sent has
	 * answered or timed out.
	 */
	public LoadResult run(URI target) {
		return run(Request.get(target));
	}

	/**
	 * Runs the load with a mix of requests: each arrival's request is drawn from
	 * {@code mix} by weight (all to one service), and the result has every route's
	 * figures beside the whole ({@link LoadResult#byRoute()}).
	 */
	public LoadResult run(Request... mix) {
		List<Request> requests = Mix.of(mix);
		try (RunHook.Load loading = RunHook.installed().load(this.name, this.rate)) {
			log.info("{}: {} rps against {} ({} warm-up, then {}; at most {} outstanding)", this.name, this.rate,
					Mix.describe(requests), Knobs.human(this.warmUp), Knobs.human(this.duration), this.maxOutstanding);
			return execute(requests, loading);
		}
	}

	private LoadResult execute(List<Request> mix, RunHook.Load loading) {
		Measurement measurement = new Measurement(this.warmUp, this.duration, this.requestTimeout)
			.withRoutes(Mix.names(mix));
		double intervalNanos = 1e9 / this.rate;
		try (HttpEventLoop loop = new HttpEventLoop(this.name, mix, this.requestTimeout, measurement, true)) {
			loop.openLoop((i) -> measurement.startNanos + (long) (i * intervalNanos), this.maxOutstanding);
		}
		LoadResult result = measurement.result(this.name, this.maxOutstanding, this.rate, this.warmUp, Mix.shares(mix));
		loading.measured(new RunHook.Window(this.name, this.warmUp, result.window(), result.completed(),
				ClosedLoopLoad.perSecond(result), RunHook.Replays.NONE));
		log.info("{}", result.summary());
		return result;
	}

}
