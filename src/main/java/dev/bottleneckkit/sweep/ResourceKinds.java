package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * The resources the analysis knows, in the order their rules are asked: the first rule
 * whose model agrees names the cap, so a team's own declaration comes first, readings
 * from a library's meters before thread dumps, a cap upstream of a client before the
 * connections it lets through, and the CPU last. Adding a resource is a
 * {@link ResourceKind} of its own and one line here.
 */
final class ResourceKinds {

	static final List<ResourceKind> ALL = List.of(new OwnKind(), new HikariPoolKind(), new HttpClientPoolKind(),
			new ReactorNettyPoolKind(), new AgroalPoolKind(), new BulkheadKind(), new RateLimiterKind(),
			new ExecutorKind(), new EventLoopsKind(), new QuarkusWorkersKind(), new JettyThreadsKind(),
			new UndertowThreadsKind(), new TomcatThreadsKind(), new CarrierThreadsKind(), new LockKind(),
			new DownstreamKind(), new WaitSiteKind(), new ConnectionPoolKind(), new CpuKind());

	private ResourceKinds() {
	}

	/** The kind of {@code resource}: every {@link Resource} has one. */
	static ResourceKind of(Resource resource) {
		return ALL.stream()
			.filter((kind) -> kind.resource() == resource)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(resource + " has no kind in ResourceKinds.ALL"));
	}

	/**
	 * The web servers whose worker pools dumps show, in the list's order: Tomcat's claims
	 * any pool, so it comes after every other server's.
	 */
	static List<DumpedServer> servers() {
		return ALL.stream().flatMap((kind) -> kind.server().stream()).toList();
	}

	/** Every kind's rules, in the list's order. */
	static List<Function<AtCap, Optional<Capped>>> rules() {
		return ALL.stream().flatMap((kind) -> kind.rules().stream()).toList();
	}

	/**
	 * The ceilings {@code step}'s measured demands give: carriers over the pinned time of
	 * a request, the CPU over the CPU of a request, the stand-in downstream's threads
	 * over its hold.
	 */
	static List<Verdict.Bound> demands(Step step) {
		return ALL.stream().flatMap((kind) -> kind.demand(step).stream()).toList();
	}

	/**
	 * The knob of the resource {@code verdict} names, at any limit; empty where it has
	 * none.
	 */
	static Optional<Knob.Family> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return of(verdict.resource()).knob(verdict, service);
	}

	/**
	 * The knob Spring Boot, Quarkus or the JVM has for the resource {@code verdict}
	 * names, doubling its limit; empty for a resource with no such knob (a client pool, a
	 * lock, the machine's cores, the downstream): the test passes one of its own.
	 */
	static Optional<Knob> doubling(Capped verdict, AbstractServiceContainer<?> service) {
		double limit = verdict.model().limit();
		return knob(verdict, service).map((family) -> family.at(2 * limit, limit));
	}

}
