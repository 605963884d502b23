package dev.bottleneckkit.junit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.junit.Phases.Phase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts and loads take turns on a schedule, and only on a schedule: each is an object of
 * its own, so one schedule's turns never hold up another's.
 */
class PhasesTest {

	@Test
	void startsAndLoadsNeverOverlapAndNeitherStarves() throws Exception {
		Phases phases = new Phases(1, LoadSlots.Machine.procStat());
		AtomicInteger starting = new AtomicInteger();
		AtomicInteger loading = new AtomicInteger();
		List<String> overlaps = java.util.Collections.synchronizedList(new ArrayList<>());
		AtomicInteger done = new AtomicInteger();
		try (ExecutorService threads = Executors.newFixedThreadPool(12)) {
			for (int i = 0; i < 12; i++) {
				int id = i;
				threads.submit(() -> {
					for (int round = 0; round < 6; round++) {
						Phase phase = ((id + round) % 2 == 0) ? Phase.STARTING : Phase.LOADING;
						AtomicInteger mine = (phase == Phase.STARTING) ? starting : loading;
						AtomicInteger theirs = (phase == Phase.STARTING) ? loading : starting;
						try (Phases.Turn turn = phases.take(phase, phase + " " + id, 1)) {
							mine.incrementAndGet();
							for (int t = 0; t < 20; t++) {
								if (theirs.get() > 0) {
									overlaps.add(phase + " " + id + " saw " + theirs.get());
								}
								Thread.sleep(2);
							}
							mine.decrementAndGet();
						}
						catch (InterruptedException ex) {
							return;
						}
					}
					done.incrementAndGet();
				});
			}
		}

		assertThat(overlaps).as("a start and a load at the same time").isEmpty();
		assertThat(done.get()).as("every thread got all its turns").isEqualTo(12);
	}

	@Test
	void aScheduleHoldsUpOnlyItsOwnTurns() throws Exception {
		Phases one = new Phases(1, LoadSlots.Machine.procStat());
		Phases another = new Phases(1, LoadSlots.Machine.procStat());

		try (Phases.Turn loading = one.take(Phase.LOADING, "a load", 1);
				ExecutorService threads = Executors.newSingleThreadExecutor()) {
			long began = System.nanoTime();
			threads.submit(() -> {
				try (Phases.Turn starting = another.take(Phase.STARTING, "a start elsewhere", 1)) {
					return null;
				}
			}).get();

			assertThat((System.nanoTime() - began) / 1e9).as("seconds the other schedule's start waited").isLessThan(1);
		}
	}

	@Test
	void aStopWaitsForTheLoadsTurnToEndAndNoLongerThanItMay() throws Exception {
		Phases phases = new Phases(1, LoadSlots.Machine.procStat());
		AtomicInteger loading = new AtomicInteger();
		try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
			Phases.Turn load = phases.take(Phase.LOADING, "a load", 1);
			loading.incrementAndGet();
			Future<Integer> stop = threads.submit(() -> {
				try (Phases.Turn stopping = phases.take(Phase.STARTING, "a stop", 1, TimeUnit.SECONDS.toNanos(30))) {
					return loading.get();
				}
			});
			Thread.sleep(300);
			assertThat(stop).as("the stop waits while the load runs").isNotDone();
			loading.decrementAndGet();
			load.close();
			assertThat(stop.get(10, TimeUnit.SECONDS)).as("loads running when the stop went on").isZero();

			try (Phases.Turn endless = phases.take(Phase.LOADING, "a load that does not end", 1)) {
				Future<?> atExit = threads.submit(() -> {
					try (Phases.Turn stopping = phases.take(Phase.STARTING, "a stop at exit", 1,
							TimeUnit.MILLISECONDS.toNanos(200))) {
						return null;
					}
				});
				assertThat(atExit.get(10, TimeUnit.SECONDS)).as("the stop went on beside the load").isNull();
			}
		}
	}

}
