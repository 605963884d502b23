package dev.bottleneckkit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.bottleneckkit.internal.Phases.Phase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PhasesTest {

	@Test
	void startsAndLoadsNeverOverlapAndNeitherStarves() throws Exception {
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
						try (Phases.Turn turn = Phases.enter(phase, phase + " " + id)) {
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

}
