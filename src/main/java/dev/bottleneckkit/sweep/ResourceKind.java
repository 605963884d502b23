package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A resource the analysis knows, in one place: the rules that find it full, its own
 * ceiling whether or not it was full, whether its holds may be waits for a core, and the
 * knob that turns it. Each is a file of its own, listed once in
 * {@link ResourceKinds#ALL}; the analysis asks the list, in its order, at each of its
 * stages, and never a resource by name. The words a person uses for it are its
 * {@link Resource#description()}.
 */
interface ResourceKind {

	/** What a verdict names: the resource's identity in the public API. */
	Resource resource();

	/**
	 * The rules that find it at its limit with work waiting, most specific readings first
	 * (meters before thread dumps): each returns a verdict with its model from the same
	 * steps, or nothing.
	 */
	default List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of();
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
	 * Whether its ceiling divides by what a request demands of it ({@link #demand}), read
	 * on a step: a confirmation reads it again on its own step.
	 */
	default boolean demanded() {
		return false;
	}

	/**
	 * Whether its holds may be waits for a core: a pool or threads the root rule
	 * ({@link Roots}) weighs against the CPU.
	 */
	default boolean weighedAgainstTheCpu() {
		return false;
	}

	/**
	 * Whether the service's TCP connections flat at its limit agree with it
	 * ({@link LimitRules#agreeing}): a connection pool's, or a bulkhead's that lets as
	 * many calls through as it has permits.
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
	 * The knob that turns it at any limit, for {@code verdict}; empty where it has none.
	 */
	default Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return Optional.empty();
	}

}
