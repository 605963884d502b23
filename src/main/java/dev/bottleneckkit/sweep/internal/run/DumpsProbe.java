package dev.bottleneckkit.sweep.internal.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;
import dev.bottleneckkit.sweep.internal.waits.Holding;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * Thread dumps of the service taken during a step: one halfway through the window the
 * step is likely to have, and {@value #POOL_DUMPS} in all where it shows request threads
 * waiting for a pooled connection, for what other threads hold, or on another thread's
 * work, or a pool of threads with none idle, the service's own or its web server's (a
 * dump is taken thread by thread, and a pool's holders are counted by what most dumps
 * say, its busy threads by their mean). A dump begun after the step's window closed is
 * not the step's: a step whose requests fail fast ends sooner than its plan, and a dump
 * of its idle threads read a refusing limit's 10 holders as none.
 */
final class DumpsProbe implements StepProbe {

	/** Dumps in a step whose first shows a pool's waiters or a busy worker pool. */
	static final int POOL_DUMPS = 3;

	private final ThreadDumpProbe threads;

	private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();

	/** The step's dumps being taken, from its begin to its end. */
	private Optional<Future<Taken>> taking = Optional.empty();

	DumpsProbe(ThreadDumpProbe threads) {
		this.threads = threads;
	}

	@Override
	public void begin(Plan plan) {
		this.taking = Optional.of(this.background.submit(() -> take(plan)));
	}

	/** The dumps the step's plan asks for, taken in the background. */
	private Taken take(Plan plan) throws InterruptedException {
		List<ThreadDump> dumps = new ArrayList<>();
		List<Long> begun = new ArrayList<>();
		Thread.sleep(plan.warmUp().plus(plan.likelyWindow().dividedBy(2)));
		try {
			begun.add(System.nanoTime());
			dumps.add(this.threads.take());
			while (dumps.size() < POOL_DUMPS && needsMoreDumps(dumps.get(0))) {
				Thread.sleep(plan.likelyWindow().dividedBy(8));
				begun.add(System.nanoTime());
				dumps.add(this.threads.take());
			}
			return new Taken(dumps, begun, Optional.empty());
		}
		catch (RuntimeException ex) {
			return new Taken(dumps, begun, Optional.of(ex));
		}
	}

	/**
	 * Whether {@code first}, a step's first dump, shows what one dump cannot count: a
	 * pool's waiters, request threads waiting where other threads hold what they wait for
	 * ({@link Holding}), a request waiting on another thread's work, an executor with
	 * none idle, or a web server's workers all busy. Their holders and busy threads are
	 * read over {@value #POOL_DUMPS} dumps: one dump catches a hand-off now and then, and
	 * read the stock {@code /handled}'s 6 handles as 5 holders.
	 */
	static boolean needsMoreDumps(ThreadDump first) {
		return ResourceKinds.ALL.stream()
			.flatMap((kind) -> kind.dumped().stream())
			.anyMatch((pool) -> pool.waitsIn(first, ResourceKinds.SERVING))
				|| Holding.in(first, ResourceKinds.SERVING::serves)
					.stream()
					.anyMatch((held) -> !held.waiters().isEmpty() && !held.holders().isEmpty())
				|| Upstream.waitsOnAFuture(first, ResourceKinds.SERVING)
				|| !Upstream.busyExecutors(first, ResourceKinds.SERVING).isEmpty()
				|| ThreadDumps.showsABusyWorkerPool(first, ResourceKinds.SERVING);
	}

	@Override
	public void end(Window window, ProbeReadings.Builder readings) {
		Taken taken = joined(this.taking.orElseThrow());
		this.taking = Optional.empty();
		readings.threads(taken.within(window));
		if (taken.failure().isPresent()) {
			throw Blind.because("thread dumps: %s; locks, thread pools and pools without meters cannot be seen",
					taken.failure().get());
		}
	}

	private static Taken joined(Future<Taken> taking) {
		try {
			return taking.get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			taking.cancel(true);
			return new Taken(List.of(), List.of(), Optional.empty());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Taken(List.of(), List.of(), Optional.empty());
		}
	}

	@Override
	public void close() {
		this.taking.ifPresent((future) -> future.cancel(true));
		this.background.close();
		this.threads.close();
	}

	/**
	 * What a step's dumping took, when each dump began ({@code System.nanoTime()}), and
	 * what stopped it.
	 */
	private record Taken(List<ThreadDump> dumps, List<Long> begun, Optional<RuntimeException> failure) {

		/** The dumps begun while the step's window was open. */
		List<ThreadDump> within(Window window) {
			List<ThreadDump> within = new ArrayList<>();
			for (int i = 0; i < this.dumps.size(); i++) {
				if (this.begun.get(i) < window.windowEnd()) {
					within.add(this.dumps.get(i));
				}
			}
			return within;
		}

	}

}
