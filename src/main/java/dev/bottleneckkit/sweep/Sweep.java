package dev.bottleneckkit.sweep;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.internal.Phases;
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;
import dev.bottleneckkit.probe.ContainerCpu;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.probe.PinnedEvent;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * Finds where a service stops scaling and which resource stops it. Closed-loop steps at
 * 1, 2, 4, 8, … users (up to {@link #upToUsers}), stopping as soon as doubling the users
 * no longer raises throughput while latency grows. Each step records throughput, latency,
 * errors by kind, the service's gauges (and its downstream's), its CPU from the
 * container's cgroup, pinned virtual threads and a thread dump, whichever probes it was
 * given. The {@link SweepResult} holds the knee, the ceiling and a {@link Verdict} naming
 * the saturated resource with the numbers that prove it, or saying that no probe explains
 * it.
 *
 * <pre>{@code
 * static final ServiceContainer orders = new ServiceContainer("registry.example.com/orders:1.4.2");
 * static final PinningProbe pinning = PinningProbe.on(orders);       // before the container starts
 *
 * SweepResult sweep = Sweep.of(orders.uri("/orders/42"))
 *     .watching(orders)                                            // Actuator gauges and cgroup CPU
 *     .pinning(pinning)
 *     .upToUsers(64)
 *     .run();
 * assertThat(sweep).isCappedBy(Resource.HIKARI_POOL);
 * }</pre>
 *
 * Step lengths follow the route: once the first step has measured one user's latency W₁,
 * each step warms up for two W₁ or the last step's latency (0.5 to 3 s), then measures
 * until every user has gone through {@value #CYCLES} whole cycles (at least 1 s, at most
 * {@value #MAX_WINDOW_SECONDS} s). A step's throughput counts each request's share of its
 * life inside the window ({@link LoadResult#throughput()}), so users that come back
 * together in waves do not bend it (a synchronized wave server reads users / period
 * within 0.5 %). The sweep runs as one load run: container starts of scenarios side by
 * side wait for it.
 */
public final class Sweep {

	private static final Logger log = LoggerFactory.getLogger(Sweep.class);

	/** Users of the last step unless told. */
	public static final int DEFAULT_MAX_USERS = 64;

	/**
	 * Whole cycles every user goes through in a step's window: its throughput is known
	 * from them.
	 */
	static final int CYCLES = 2;

	/**
	 * The longest a step's window lasts when some user answers too seldom for
	 * {@value #CYCLES} cycles.
	 */
	static final int MAX_WINDOW_SECONDS = 6;

	/** A doubling of the users that raises throughput by less than this share is flat. */
	static final double FLAT_GAIN = 1.15;

	/** ... when latency grew by at least this factor: the extra users queued. */
	static final double QUEUED_LATENCY = 1.5;

	/**
	 * ... or when at least this share of a step's answers were errors: the extra users
	 * were turned away.
	 */
	static final double REJECTED_SHARE = 0.1;

	private final List<Request> mix;

	/** Where the mix goes: its first request's URI, for logs and results. */
	private final URI target;

	private final String name;

	private final int maxUsers;

	private final Duration requestTimeout;

	private final GenericContainer<?> service;

	private final GenericContainer<?> downstream;

	private final PinningProbe pinning;

	private final ThreadDumpProbe threads;

	private Sweep(List<Request> mix, String name, int maxUsers, Duration requestTimeout, GenericContainer<?> service,
			GenericContainer<?> downstream, PinningProbe pinning, ThreadDumpProbe threads) {
		this.mix = List.copyOf(mix);
		this.target = mix.get(0).uri();
		this.name = name;
		this.maxUsers = maxUsers;
		this.requestTimeout = requestTimeout;
		this.service = service;
		this.downstream = downstream;
		this.pinning = pinning;
		this.threads = threads;
	}

	/**
	 * A sweep of the route {@code target}, up to {@value #DEFAULT_MAX_USERS} users, with
	 * no probe yet.
	 */
	public static Sweep of(URI target) {
		return of(Request.get(target)).named("sweep " + target.getPath());
	}

	/**
	 * A sweep of a mix of requests (method, headers, body, weights; all to one service),
	 * up to {@value #DEFAULT_MAX_USERS} users, with no probe yet: each step's users draw
	 * their requests from the mix, and each step's result has every route's figures
	 * ({@link LoadResult#byRoute()}).
	 */
	public static Sweep of(Request... mix) {
		if (mix == null || mix.length == 0) {
			throw new IllegalArgumentException("a sweep needs at least one request to send");
		}
		return new Sweep(List.of(mix), "sweep " + mix[0].name(), DEFAULT_MAX_USERS,
				ClosedLoopLoad.DEFAULT_REQUEST_TIMEOUT, null, null, null, null);
	}

	/** A name for logs and reports. */
	public Sweep named(String name) {
		return new Sweep(this.mix, name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.pinning, this.threads);
	}

	/** The users of the last step, 2 to 4096 (steps double from one). */
	public Sweep upToUsers(int users) {
		return new Sweep(this.mix, this.name, Knobs.between("users", users, 2, 4096), this.requestTimeout, this.service,
				this.downstream, this.pinning, this.threads);
	}

	/**
	 * How long one request may take before it counts as a {@code timeout}, 1 ms to 10
	 * min.
	 */
	public Sweep requestTimeout(Duration timeout) {
		return new Sweep(this.mix, this.name, this.maxUsers,
				Knobs.between("requestTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(10)), this.service,
				this.downstream, this.pinning, this.threads);
	}

	/**
	 * Reads the service in {@code container} at every step: its Spring Boot Actuator
	 * gauges (Tomcat threads, HTTP client, Hikari and Reactor Netty pools; those it lacks
	 * are skipped) and its CPU from the container's cgroup, against its {@code --cpus} or
	 * the host's cores.
	 */
	public Sweep watching(GenericContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, container, this.downstream,
				this.pinning, this.threads);
	}

	/**
	 * Reads the service's downstream the same way, so that the verdict can name the
	 * downstream's own cap.
	 */
	public Sweep watchingDownstream(GenericContainer<?> container) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, container, this.pinning,
				this.threads);
	}

	/**
	 * Records pinned virtual threads at every step with {@code probe} (set up before its
	 * container started).
	 */
	public Sweep pinning(PinningProbe probe) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream, probe,
				this.threads);
	}

	/**
	 * Takes a thread dump in the middle of every step with {@code probe}, to find request
	 * threads crowding a lock.
	 */
	public Sweep threadDumps(ThreadDumpProbe probe) {
		return new Sweep(this.mix, this.name, this.maxUsers, this.requestTimeout, this.service, this.downstream,
				this.pinning, probe);
	}

	/** Runs the steps and names the cap. */
	public SweepResult run() {
		long started = System.nanoTime();
		List<Step> steps = new ArrayList<>();
		boolean saturated = false;
		if (this.pinning != null && !this.pinning.recording()) {
			this.pinning.start();
		}
		try (Phases.Turn loading = Phases.enter(Phases.Phase.LOADING, this.name, 2);
				ExecutorService dumps = Executors.newVirtualThreadPerTaskExecutor()) {
			log.info("{}: sweeping {} from 1 user, doubling up to {}", this.name, this.target, this.maxUsers);
			for (int users = 1; users <= this.maxUsers; users *= 2) {
				Step step = step(users, steps, dumps);
				steps.add(step);
				log.info("{}: {} users, {} rps, mean {} ms, {} errors", this.name, users,
						String.format(Locale.ROOT, "%.1f", step.throughput()), step.meanLatency().toMillis(),
						step.result().errorCount());
				if (step.result().generatorSaturated() || step.result().succeeded() == 0) {
					saturated = step.result().generatorSaturated() || steps.size() > 1;
					break;
				}
				if (steps.size() >= 2 && flat(steps.get(steps.size() - 2), step)) {
					saturated = true;
					break;
				}
			}
		}
		SweepResult partial = new SweepResult(this.name, this.target, steps, saturated, null,
				Duration.ofNanos(System.nanoTime() - started));
		Verdict verdict = Attribution.of(partial);
		SweepResult result = new SweepResult(this.name, this.target, steps, saturated, verdict,
				Duration.ofNanos(System.nanoTime() - started));
		log.info("{}: {} ({} steps in {} s){}{}", this.name, verdict, steps.size(), result.took().toSeconds(),
				System.lineSeparator(), result.table());
		return result;
	}

	/**
	 * Doubling the users gained less than {@value #FLAT_GAIN}x throughput while the extra
	 * users queued (latency grew {@value #QUEUED_LATENCY}x) or were turned away (at least
	 * {@value #REJECTED_SHARE} of the answers were errors, more than before: a pool with
	 * a pending limit fails the extra users fast instead of making them wait).
	 */
	static boolean flat(Step before, Step after) {
		if (after.throughput() >= FLAT_GAIN * before.throughput()) {
			return false;
		}
		// Queued: the mean latency of the answers grew, or, by Little's law, the time
		// each user's request took
		// (users / throughput) did. Under CPU pressure a queue stops being fair: the
		// answers that come back are the
		// quick ones, their mean hardly moves, and only users / throughput shows the
		// wait.
		boolean queued = after.meanLatency().toNanos() >= QUEUED_LATENCY * before.meanLatency().toNanos()
				|| cycle(after) >= QUEUED_LATENCY * cycle(before);
		return queued || (errorShare(after) >= REJECTED_SHARE && errorShare(after) > errorShare(before));
	}

	/**
	 * Seconds per request per user by Little's law: users / throughput; infinite without
	 * answers.
	 */
	private static double cycle(Step step) {
		return (step.throughput() <= 0) ? Double.POSITIVE_INFINITY : step.users() / step.throughput();
	}

	private static double errorShare(Step step) {
		long completed = step.result().completed();
		return (completed == 0) ? 0 : step.result().errorCount() / (double) completed;
	}

	private Step step(int users, List<Step> before, ExecutorService dumps) {
		Duration w1 = before.isEmpty() ? null : before.get(0).meanLatency();
		Duration lastLatency = before.isEmpty() ? Duration.ZERO : before.get(before.size() - 1).meanLatency();
		Duration warmUp = (w1 == null) ? Duration.ofSeconds(1)
				: clamp(max(w1.multipliedBy(2), lastLatency), Duration.ofMillis(500), Duration.ofSeconds(3));
		// When a thread dump is taken: halfway through the window this step is likely to
		// have, its users' cycles
		// twice the last step's latency once the users queue.
		Duration likelyWindow = clamp(lastLatency.multipliedBy(2L * (CYCLES + 1)), Duration.ofSeconds(1),
				Duration.ofSeconds(MAX_WINDOW_SECONDS));
		ServiceGauges serviceGauges = (this.service != null) ? ServiceGauges.at(uriOf(this.service)).start() : null;
		ServiceGauges downstreamGauges = (this.downstream != null) ? ServiceGauges.at(uriOf(this.downstream)).start()
				: null;
		Duration serviceCpu = cpu(this.service);
		Duration downstreamCpu = cpu(this.downstream);
		Instant stepStart = Instant.now();
		long wallStart = System.nanoTime();
		Future<ThreadDump> dump = (this.threads == null) ? null : dumps.submit(() -> {
			Thread.sleep(warmUp.plus(likelyWindow.dividedBy(2)));
			return this.threads.take();
		});

		LoadResult result = ClosedLoopLoad.users(users)
			.warmUp(warmUp)
			.forCycles(CYCLES, Duration.ofSeconds(MAX_WINDOW_SECONDS))
			.requestTimeout(this.requestTimeout)
			.named(this.name + ", " + users + (users == 1 ? " user" : " users"))
			.run(this.mix.toArray(Request[]::new));

		Duration wall = Duration.ofNanos(System.nanoTime() - wallStart);
		double serviceCores = cores(this.service, serviceCpu, wall);
		double downstreamCores = cores(this.downstream, downstreamCpu, wall);
		GaugeTimeline service = (serviceGauges != null) ? serviceGauges.stop() : new GaugeTimeline(Map.of());
		GaugeTimeline downstream = (downstreamGauges != null) ? downstreamGauges.stop() : new GaugeTimeline(Map.of());
		List<PinnedEvent> pinned = (this.pinning == null) ? List.of()
				: this.pinning.read().events().stream().filter((event) -> !event.start().isBefore(stepStart)).toList();
		return new Step(users, result, service, downstream, serviceCores, cpuLimit(this.service), downstreamCores,
				cpuLimit(this.downstream), pinned, join(dump), wall);
	}

	private static URI uriOf(GenericContainer<?> container) {
		if (container instanceof ServiceContainer service) {
			return service.uri("");
		}
		int port = container.getExposedPorts().get(0);
		return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(port));
	}

	private static Duration cpu(GenericContainer<?> container) {
		return (container == null) ? null : ContainerCpu.on(container).used();
	}

	private static double cores(GenericContainer<?> container, Duration before, Duration wall) {
		if (container == null || before == null) {
			return Double.NaN;
		}
		return ContainerCpu.on(container).used().minus(before).toNanos() / (double) wall.toNanos();
	}

	/**
	 * The cores {@code container} may use: its {@code --cpus}, or the Docker host's
	 * cores.
	 */
	private static double cpuLimit(GenericContainer<?> container) {
		if (container == null) {
			return Double.NaN;
		}
		Long nanoCpus = container.getContainerInfo().getHostConfig().getNanoCPUs();
		if (nanoCpus != null && nanoCpus > 0) {
			return nanoCpus / 1e9;
		}
		Integer hostCpus = DockerClientFactory.instance().getInfo().getNCPU();
		return (hostCpus != null && hostCpus > 0) ? hostCpus : Runtime.getRuntime().availableProcessors();
	}

	private static ThreadDump join(Future<ThreadDump> dump) {
		if (dump == null) {
			return null;
		}
		try {
			return dump.get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			log.warn("no thread dump for this step: {}", ex.toString());
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private static Duration clamp(Duration value, Duration min, Duration max) {
		return (value.compareTo(min) < 0) ? min : (value.compareTo(max) > 0) ? max : value;
	}

}
