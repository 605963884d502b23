package dev.bottleneckkit.sweep.internal.waits;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each wait family on dumps {@link WaitFamilies} recorded on JDK 21 and 25, with request
 * threads on platform and virtual threads: five requests at a resource of two, so three
 * wait and two hold (one holder and four waiters at a monitor or a lock; all five wait
 * for two workers' work at a future or a latch).
 */
class HoldingTest {

	private static final String HANDLER = "dev.bottleneckkit.sweep.internal.waits.WaitFamilies$Handler$";

	static final Predicate<DumpedThread> REQUESTS = (thread) -> thread.name().startsWith("request-");

	record Family(String file, Primitive primitive, String frame, int waiters, int holders, Holding.How how,
			String past) {

	}

	static final List<Family> FAMILIES = List.of(
			new Family("object-wait", Primitive.OBJECT_WAIT, "Licences.take", 3, 2, Holding.How.PAST_THE_SITE,
					"Licences.serve"),
			new Family("lock", Primitive.LOCK, "Locked.serve", 4, 1, Holding.How.PAST_THE_SITE, "Locked.serve"),
			new Family("condition", Primitive.CONDITION, "Conditioned.borrow", 3, 2, Holding.How.PAST_THE_SITE,
					"Conditioned.serve"),
			new Family("semaphore", Primitive.SEMAPHORE, "Permits.serve", 3, 2, Holding.How.PAST_THE_SITE,
					"Permits.serve"),
			new Family("queue", Primitive.QUEUE, "Handles.serve", 3, 2, Holding.How.PAST_THE_SITE, "Handles.serve"),
			new Family("future", Primitive.FUTURE, "Joined.serve", 5, 2, Holding.How.BUSY_WORKERS, null),
			new Family("latch", Primitive.LATCH, "Latched.serve", 5, 2, Holding.How.BUSY_WORKERS, null),
			new Family("socket-read", Primitive.SOCKET_READ, "Silent.serve", 5, 0, Holding.How.NOT_IN_THE_DUMP, null));

	static Stream<Arguments> dumps() {
		return Stream.of("jdk21", "jdk25")
			.flatMap((jdk) -> Stream.of("platform", "virtual")
				.flatMap((threads) -> FAMILIES.stream().map((family) -> Arguments.of(jdk, threads, family))));
	}

	@ParameterizedTest(name = "{0}, {1} threads: {2}")
	@MethodSource("dumps")
	void eachFamilyFindsItsWaitersAndHolders(String jdk, String threads, Family family) {
		ThreadDump dump = dump(jdk, family.file() + "-" + threads);

		Holding first = Holding.in(dump, REQUESTS).get(0);

		assertThat(first.site()).isEqualTo(new WaitSite(family.primitive(), HANDLER + family.frame()));
		assertThat(first.waiters()).as(first.toString()).hasSize(family.waiters());
		assertThat(first.how()).as(first.toString()).isEqualTo(family.how());
		assertThat(first.holders()).as(first.toString()).hasSize(family.holders());
		if (family.past() != null) {
			assertThat(first.frame()).as(first.toString()).contains(HANDLER + family.past());
		}
		System.out.println(jdk + ", " + threads + ": " + first);
	}

	/**
	 * A monitor's entry shows in JDK 25's dumps only (their state, what each thread is
	 * blocked on and which monitors it owns): the one holder owns it.
	 */
	@ParameterizedTest(name = "jdk25, {0} threads")
	@MethodSource("threads")
	void jdk25NamesAMonitorsOwner(String threads) {
		Holding first = Holding.in(dump("jdk25", "monitor-" + threads), REQUESTS).get(0);

		assertThat(first.site()).isEqualTo(new WaitSite(Primitive.MONITOR, HANDLER + "Monitor.serve"));
		assertThat(first.waiters()).as(first.toString()).hasSize(4);
		assertThat(first.how()).isEqualTo(Holding.How.OWN_THE_MONITOR);
		assertThat(first.holders()).as(first.toString()).hasSize(1);
	}

	/**
	 * On JDK 21 a thread entering a monitor looks like one running in the synchronized
	 * method: only the holder's sleep is a wait there.
	 */
	@ParameterizedTest(name = "jdk21, {0} threads")
	@MethodSource("threads")
	void jdk21CannotTellAMonitorsEntryFromRunning(String threads) {
		List<Holding> holdings = Holding.in(dump("jdk21", "monitor-" + threads), REQUESTS);

		assertThat(holdings).noneMatch((holding) -> holding.site().primitive() == Primitive.MONITOR);
	}

	static Stream<String> threads() {
		return Stream.of("platform", "virtual");
	}

	@Test
	void aThreadThatRunsWaitsNowhere() {
		DumpedThread running = new DumpedThread("request-1",
				List.of("com.acme.Prices.compute", "com.acme.PriceController.price", "java.lang.Thread.run"));

		assertThat(WaitSite.of(running)).isEqualTo(Optional.empty());
	}

	private static ThreadDump dump(String jdk, String name) {
		try {
			return ThreadDump.read(Path.of(HoldingTest.class.getResource(jdk + "/" + name + ".json").toURI()));
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
