package dev.bottleneckkit.junit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.bottleneckkit.internal.RunHook;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the budget puts a load's seconds: its wait for a slot, and the slot's busy time.
 */
class BudgetTest {

	@BeforeAll
	static void theSuitesHook() {
		SuiteHook.install("BudgetTest");
	}

	@Test
	void theSlotsBusyTimeCountsOverlappingTurnsOnce() {
		assertThat(Budget
			.union(List.of(new long[] { 0, 10 }, new long[] { 5, 15 }, new long[] { 20, 30 }, new long[] { 22, 25 })))
			.isEqualTo(Duration.ofNanos(25));
		assertThat(Budget.union(List.of())).isEqualTo(Duration.ZERO);
	}

	/**
	 * A load that waits for another class's load to give the slot back waits, in the
	 * budget: not unexplained time between the class's spans. (Other tests' loads may
	 * hold the slot too, so only lower bounds.)
	 */
	@Test
	void aLoadWaitingForTheSlotCountsAsWaitingAndItsTurnAsALoadTurn() throws Exception {
		CountDownLatch firstHasTheSlot = new CountDownLatch(1);
		try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
			Future<?> first = threads.submit(() -> {
				Budget.owner("BudgetTest-first");
				// Two slots, every slot the kit's build gives.
				try (RunHook.Load turn = RunHook.installed().loads("first")) {
					firstHasTheSlot.countDown();
					Thread.sleep(400);
				}
				return null;
			});
			firstHasTheSlot.await();
			Future<?> second = threads.submit(() -> {
				Budget.owner("BudgetTest-second");
				try (RunHook.Load turn = RunHook.installed().load("second", 1)) {
					Thread.sleep(100);
				}
				return null;
			});
			first.get();
			second.get();
		}

		assertThat(Budget.byClass().get("BudgetTest-second").get("waiting")).as("the second load's wait for the slot")
			.isGreaterThanOrEqualTo(0.25);
		assertThat(Budget.byClass().get("BudgetTest-second").get("load_turns")).isGreaterThanOrEqualTo(0.09);
		assertThat(Budget.byClass().get("BudgetTest-first").get("load_turns")).isGreaterThanOrEqualTo(0.39);
	}

	/**
	 * Turns side by side count once in the busy time, and what they saved is said. (Far
	 * in the past, so that no other test's turn overlaps them.)
	 */
	@Test
	void loadsSideBySideSaveTheirOverlapAndAreCounted() {
		long longAgo = System.nanoTime() - TimeUnit.HOURS.toNanos(1);
		Budget.SlotTime before = Budget.loadSlots();
		Budget.turn(longAgo, longAgo + 3_000_000_000L);
		Budget.turn(longAgo + 2_000_000_000L, longAgo + 4_000_000_000L, true);
		Budget.SlotTime after = Budget.loadSlots();

		// Other tests' loads may go side by side meanwhile: lower bounds.
		assertThat(after.sideBySide().minus(before.sideBySide())).as("the second's first second beside the first")
			.isGreaterThanOrEqualTo(Duration.ofSeconds(1));
		assertThat(after.loadsBeside() - before.loadsBeside()).isGreaterThanOrEqualTo(1);
	}

}
