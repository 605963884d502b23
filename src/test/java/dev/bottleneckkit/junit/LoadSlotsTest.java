package dev.bottleneckkit.junit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Loads side by side only when the machine has the CPU for them, on a machine whose busy
 * share the test sets.
 */
class LoadSlotsTest {

	@Test
	void aSecondLoadGoesBesideTheFirstOnceItSettledOnAQuietMachine() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.of(0.1), 0.4);
		LoadSlots.Held first = slots.take(1, "first");
		long asked = System.nanoTime();
		LoadSlots.Held second = slots.take(1, "second");

		assertThat(second.began() - first.began()).as("after the first settled")
			.isGreaterThanOrEqualTo(LoadSlots.SETTLE.toNanos());
		assertThat(second.busyWhenJoined()).hasValue(0.1);
		assertThat(first.busyWhenJoined()).as("the first began alone").isEmpty();
		assertThat(System.nanoTime() - asked).isLessThan(TimeUnit.SECONDS.toNanos(3));
	}

	@Test
	void aSecondLoadWaitsForTheFirstWhileTheMachineIsBusy() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.of(0.7), 0.4);
		LoadSlots.Held first = slots.take(1, "first");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<LoadSlots.Held> second = threads.submit(() -> slots.take(1, "second"));
			Thread.sleep(LoadSlots.SETTLE.toMillis() + 500);
			assertThat(second).as("still waiting: the machine is 70 % busy").isNotDone();

			slots.give(first);
			assertThat(second.get(2, TimeUnit.SECONDS).busyWhenJoined()).as("it ran alone").isEmpty();
		}
	}

	@Test
	void noReadingIsNoRoom() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.empty(), 0.4);
		LoadSlots.Held first = slots.take(1, "first");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<LoadSlots.Held> second = threads.submit(() -> slots.take(1, "second"));
			Thread.sleep(LoadSlots.SETTLE.toMillis() + 500);
			assertThat(second).isNotDone();
			slots.give(first);
			second.get(2, TimeUnit.SECONDS);
		}
	}

	@Test
	void aLoadWaitingForEverySlotIsNotOvertakenByLaterOnes() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.of(0.0), 0.4);
		List<String> order = new CopyOnWriteArrayList<>();
		LoadSlots.Held first = slots.take(1, "first");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<?> sweep = threads.submit(() -> {
				LoadSlots.Held held = slots.take(2, "sweep");
				order.add("sweep");
				slots.give(held);
				return null;
			});
			Thread.sleep(200);
			Future<?> later = threads.submit(() -> {
				LoadSlots.Held held = slots.take(1, "later");
				order.add("later");
				slots.give(held);
				return null;
			});
			Thread.sleep(LoadSlots.SETTLE.toMillis() + 500);
			assertThat(order).as("the later load waits behind the sweep, though the machine is idle").isEmpty();

			slots.give(first);
			sweep.get(2, TimeUnit.SECONDS);
			later.get(2, TimeUnit.SECONDS);
		}
		assertThat(order).containsExactly("sweep", "later");
	}

	@Test
	void theMachineIsReadFromProcStatOverHalfASecondAtLeast(@TempDir Path dir) throws Exception {
		Path stat = dir.resolve("stat");
		Files.writeString(stat, "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n");
		LoadSlots.ProcStat machine = new LoadSlots.ProcStat(stat);
		long since = System.nanoTime();

		assertThat(machine.busyShareSince(since)).as("the first reading only begins one").isEmpty();
		Files.writeString(stat, "cpu  130 0 110 860 0 0 0 0 0 0\n");
		assertThat(machine.busyShareSince(since)).as("too short a reading").isEmpty();
		Thread.sleep(LoadSlots.Machine.READING.toMillis() + 50);
		assertThat(machine.busyShareSince(since)).as("40 busy ticks of 100").hasValue(0.4);
		assertThat(machine.busyShareSince(System.nanoTime())).as("a reading from before the load settled").isEmpty();
	}

	@Test
	void aLineThatIsNotTheMachinesIsNoReading() {
		assertThat(LoadSlots.ProcStat.parse("cpu0 1 2 3 4")).isEmpty();
		assertThat(LoadSlots.ProcStat.parse("cpu  10 1 5 100 4 1 1 0 0 0"))
			.hasValueSatisfying((ticks) -> assertThat(ticks).containsExactly(18, 122));
	}

	@Test
	void aSweepWhoseStepNeedsOneSlotLetsAWaitingLoadBesideItOnceTheStepSettled() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.of(0.1), 0.4);
		LoadSlots.Held sweep = slots.take(2, "sweep");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<LoadSlots.Held> load = threads.submit(() -> slots.take(1, "load"));
			Thread.sleep(LoadSlots.SETTLE.toMillis() + 300);
			assertThat(load).as("both slots are the sweep's").isNotDone();

			LoadSlots.Held step = slots.reweigh(sweep, 1, "sweep, 4 users");
			assertThat(step.permits()).isEqualTo(1);
			LoadSlots.Held beside = load.get(3, TimeUnit.SECONDS);
			assertThat(beside.began() - step.began()).as("after the step settled")
				.isGreaterThanOrEqualTo(LoadSlots.SETTLE.toNanos());
			assertThat(beside.busyWhenJoined()).hasValue(0.1);
		}
	}

	@Test
	void aSweepWhoseStepNeedsBothSlotsAgainWaitsAheadOfLaterLoads() throws Exception {
		LoadSlots slots = new LoadSlots(2, (since) -> OptionalDouble.of(0.1), 0.4);
		List<String> order = new CopyOnWriteArrayList<>();
		LoadSlots.Held step = slots.take(1, "sweep, 4 users");
		LoadSlots.Held beside = slots.take(1, "load");
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<?> later = threads.submit(() -> {
				Thread.sleep(200);
				LoadSlots.Held held = slots.take(1, "later");
				order.add("later");
				slots.give(held);
				return null;
			});
			Future<LoadSlots.Held> next = threads.submit(() -> {
				LoadSlots.Held held = slots.reweigh(step, 2, "sweep, 32 users");
				order.add("sweep");
				return held;
			});
			Thread.sleep(LoadSlots.SETTLE.toMillis() + 500);
			assertThat(next).as("waiting for the load beside it to end").isNotDone();

			slots.give(beside);
			LoadSlots.Held whole = next.get(2, TimeUnit.SECONDS);
			assertThat(whole.permits()).isEqualTo(2);
			assertThat(whole.busyWhenJoined()).as("alone").isEmpty();
			slots.give(whole);
			later.get(3, TimeUnit.SECONDS);
			assertThat(order).containsExactly("sweep", "later");
		}
	}

	@Test
	void aStepTakesOneSlotOnlyWhenItsUsersAreFewAndTheStepBeforeKeptTheCoresQuiet() {
		assertThat(Phases.stepWeight(1, OptionalDouble.empty())).as("nothing read yet").isEqualTo(2);
		assertThat(Phases.stepWeight(4, OptionalDouble.of(0.15))).isEqualTo(1);
		assertThat(Phases.stepWeight(4, OptionalDouble.of(0.25))).as("twice 25 % is above 40 %").isEqualTo(2);
		assertThat(Phases.stepWeight(32, OptionalDouble.of(0.05))).as("more than 20 users").isEqualTo(2);
	}

}
