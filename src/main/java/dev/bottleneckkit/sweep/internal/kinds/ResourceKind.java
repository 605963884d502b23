package dev.bottleneckkit.sweep.internal.kinds;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.ConfiguredLimit;
import dev.bottleneckkit.sweep.internal.analysis.DumpedPool;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;
import dev.bottleneckkit.sweep.internal.analysis.Pool;
import dev.bottleneckkit.sweep.internal.analysis.ServerFull;
import dev.bottleneckkit.sweep.internal.run.Readings;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * A resource the analysis knows, in one place: the rules that find it full, its own
 * ceiling whether or not it was full, whether its holds may be waits for a core, and the
 * knob that turns it. Each is a file of its own, listed once in
 * {@link ResourceKinds#ALL}; the analysis asks the list, in its order, at each of its
 * stages, and never a resource by name. The words a person uses for it are its
 * {@link Resource#description()}.
 */
public interface ResourceKind {

	/** What a verdict names: the resource's identity in the public API. */
	Resource resource();

	/**
	 * The rules that find it at its limit with work waiting, most specific readings first
	 * (meters before thread dumps): each returns a verdict with its model from the same
	 * steps, or nothing. By default: full by its meters ({@link #fullByItsMeters}), then
	 * its pool full in dumps ({@link #dumped}), then its server's worker pool full in
	 * dumps ({@link #server}), as far as it has them.
	 */
	default List<Function<AtCap, Optional<Capped>>> rules() {
		List<Function<AtCap, Optional<Capped>>> rules = new ArrayList<>();
		rules.add((at) -> fullByItsMeters(at.last().service()).map((full) -> full.capped(at, resource())));
		dumped().ifPresent((pool) -> rules.add(pool::capped));
		server().ifPresent((server) -> rules.add((at) -> ServerFull.capped(server, at)));
		return rules;
	}

	/**
	 * The limit it is configured with and publishes as a meter, with the meter of its
	 * use, where it has one: its {@link #bound} and {@link #asConfigured} read them.
	 */
	default Optional<ConfiguredLimit> configured() {
		return Optional.empty();
	}

	/**
	 * Its own ceiling, read from the sweep whether or not it was full: its configured
	 * limit over what a request holds of it, where the steps saw it in use; at most W₁.
	 */
	default Optional<Verdict.Bound> bound(AtCap at) {
		return configured().flatMap((limit) -> limit.atW1(at));
	}

	/**
	 * {@code bound}, its own, at the limit {@code turned} read for it where a knob
	 * changed that limit: the same hold, the new limit.
	 */
	default Verdict.Bound asConfigured(Verdict.Bound bound, Step turned) {
		return configured().map((limit) -> limit.asConfigured(bound, turned)).orElse(bound);
	}

	/**
	 * What a request held it for with one user, where its own timer read that: the hold
	 * of its uses before any waited for a core, which the root rule compares with its
	 * hold at the cap.
	 */
	default Optional<Verdict.Model> atOneUser(AtCap at) {
		return Optional.empty();
	}

	/**
	 * Its ceiling from what a request of {@code step} demanded of it (its CPU, its pinned
	 * time, the downstream's hold): read again on a confirmation's own step, where the
	 * demand is that step's, not the sweep's.
	 */
	default Optional<Verdict.Bound> demand(Step step) {
		return Optional.empty();
	}

	/**
	 * Its ceiling as a confirmation's step read it with its knob turned, where that
	 * bounds the raised ceiling rather than the ceiling times the knob's factor: the
	 * CPU's (a JVM on other CPUs is another), the carriers' (raised carriers share the
	 * same cores). Empty for a limit the knob's factor scales.
	 */
	default Optional<Raised> asRaised(Step step) {
		return Optional.empty();
	}

	/**
	 * A kind's ceiling read on a confirmation's step.
	 *
	 * @param bound its ceiling there
	 * @param words what the prediction calls it: "the CPU with the knob turned, as its
	 * step read it"
	 * @param inCores whether it moves in cores: the prediction whatever it reads, and the
	 * confirmation held to the cores the service used; else the prediction only where it
	 * lies below the ceiling times the knob's factor
	 */
	record Raised(Verdict.Bound bound, String words, boolean inCores) {

	}

	/**
	 * Whether its ceiling divides by what a request demands of it ({@link #demand}), read
	 * on a step: a confirmation reads it again on its own step.
	 */
	default boolean demanded() {
		return false;
	}

	/**
	 * Whether its holds may be waits for a core: a pool or threads the root rule
	 * ({@link CpuKind#rooted}) weighs against the CPU.
	 */
	default boolean weighedAgainstTheCpu() {
		return false;
	}

	/**
	 * Whether the service's TCP connections flat at its limit agree with it
	 * ({@link dev.bottleneckkit.sweep.internal.analysis.Corroboration}): a connection
	 * pool's, or a bulkhead's that lets as many calls through as it has permits.
	 */
	default boolean connectionsAgree() {
		return false;
	}

	/**
	 * Whether the destination of those agreeing connections is where it is: a client's
	 * pool is the pool to that destination; a bulkhead is not.
	 */
	default boolean atItsDestination() {
		return connectionsAgree();
	}

	/**
	 * The web server whose worker pool dumps show it as, when it is one: a pool in a dump
	 * is the first server's of {@link ResourceKinds#ALL} that claims it
	 * ({@link AtCap#serverOf}), so a claim names only its own frames or threads' name.
	 */
	default Optional<DumpedServer> server() {
		return Optional.empty();
	}

	/**
	 * {@code verdict}, another kind's, read again by this one: the CPU names itself the
	 * root of a pool whose holds wait for a core ({@link CpuKind#rooted}). The verdict as
	 * it is where this kind has nothing to add.
	 */
	default Capped rooted(AtCap at, Capped verdict) {
		return verdict;
	}

	/**
	 * The ceilings of {@code bounds} as this kind reads them beside {@code verdict}: the
	 * CPU, named the root of a pool, reads that pool's ceiling at its own hold with one
	 * user ({@link CpuKind#unqueued}).
	 */
	default List<Verdict.Bound> unqueued(AtCap at, Verdict verdict, List<Verdict.Bound> bounds) {
		return bounds;
	}

	/**
	 * The waits for its permits or its rate a request thread shows in a dump before any
	 * client ({@link Upstream}): its library's own frame, before the JDK's it waits in.
	 */
	default List<Upstream.Permit> permits() {
		return List.of();
	}

	/**
	 * What it reads of the service's configuration over {@code agent} once after the
	 * steps, where {@code steps} show it is there and no meter gives it (a rate limiter's
	 * rate); its rules find it in {@link Readings#settings(Class)}, and {@code blind}
	 * takes a line for what could not be read. None by default.
	 */
	default List<? extends Record> settings(List<Step> steps, JmxAgent agent, List<String> blind) {
		return List.of();
	}

	/**
	 * A full executor of the service ({@link ExecutorKind}), {@code pool} by its threads'
	 * name, named this kind where its threads are its own; empty where they are not.
	 */
	default Optional<Capped> namesExecutor(AtCap at, String pool, int threads, int waiting, Verdict.Model model,
			Map<String, String> readings) {
		return Optional.empty();
	}

	/**
	 * It as a pool thread dumps show, where its meters are not published: its frames of
	 * waiting, holding and passing threads ({@link DumpedPool}). The dumps probe takes
	 * more dumps of a step whose first shows its waiters.
	 */
	default Optional<DumpedPool> dumped() {
		return Optional.empty();
	}

	/**
	 * It full by its own meters in {@code gauges}, the service's or a downstream's: the
	 * pool's reading, what a verdict says of it and what its units are called.
	 */
	default Optional<FullPool> fullByItsMeters(GaugeTimeline gauges) {
		return Optional.empty();
	}

	/**
	 * A pool full by its meters ({@link #fullByItsMeters}).
	 *
	 * @param pool its reading
	 * @param saw what a verdict says of it: {@code Tomcat threads 4/4 busy}
	 * @param units what its units are called: {@code threads}
	 */
	record FullPool(Pool pool, String saw, String units) {

		/** It as the cap: Little's law, its limit over W₁. */
		Capped capped(AtCap at, Resource resource) {
			return at.capped(resource, this.saw, new Verdict.Model(this.pool.limit(), this.units, at.w1(), "W₁"),
					Optional.empty(), this.pool.readings());
		}

	}

	/**
	 * The knob that turns it at any limit, for {@code verdict}; empty where it has none.
	 */
	default Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.empty();
	}

}
