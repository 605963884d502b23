package dev.bottleneckkit.sweep.internal.kinds;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.sweep.Knob;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;
import dev.bottleneckkit.sweep.internal.read.Serving;
import dev.bottleneckkit.sweep.internal.waits.Upstream;

/**
 * The resources the analysis knows, in the order their rules are asked: the first rule
 * whose model agrees names the cap, so a team's own declaration comes first, readings
 * from a library's meters before thread dumps, a cap upstream of a client before the
 * connections it lets through, and the CPU last. Each is a {@link ResourceKind} of its
 * own, found by {@link ServiceLoader} in the kit's
 * {@code META-INF/services/dev.bottleneckkit.sweep.internal.kinds.ResourceKind}, whose
 * order is this list's: adding a resource is one file and one line there.
 */
public final class ResourceKinds {

	public static final List<ResourceKind> ALL = ServiceLoader
		.load(ResourceKind.class, ResourceKind.class.getClassLoader())
		.stream()
		.map(ServiceLoader.Provider::get)
		.toList();

	/** Every kind's permits, then the libraries' ({@link #permits}): read once. */
	private static final List<Upstream.Permit> PERMITS = Stream
		.concat(ALL.stream().flatMap((kind) -> kind.permits().stream()), Upstream.LIBRARIES.stream())
		.toList();

	/**
	 * What a request thread is in a dump, by every web server's frames
	 * ({@link DumpedServer#serving}): read once.
	 */
	public static final Serving SERVING = DumpedServer.serving(servers());

	private ResourceKinds() {
	}

	/** The kind of {@code resource}: every {@link Resource} has one. */
	public static ResourceKind of(Resource resource) {
		return ALL.stream()
			.filter((kind) -> kind.resource() == resource)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(resource + " has no kind in ResourceKinds.ALL"));
	}

	/**
	 * The web servers whose worker pools dumps show, in the list's order: Tomcat's claims
	 * any pool, so it comes after every other server's.
	 */
	public static List<DumpedServer> servers() {
		return ALL.stream().flatMap((kind) -> kind.server().stream()).toList();
	}

	/**
	 * Where a request thread waits for a permit or a rate, what a person calls it, and
	 * what kind of wait it is: the library's own frame before the JDK's it waits in (a
	 * Resilience4j bulkhead waits in a {@code Semaphore}), each kind's first
	 * ({@link ResourceKind#permits}), then the libraries' no kind claims.
	 */
	public static List<Upstream.Permit> permits() {
		return PERMITS;
	}

	/** Every kind's rules, in the list's order. */
	public static List<Function<AtCap, Optional<Capped>>> rules() {
		return ALL.stream().flatMap((kind) -> kind.rules().stream()).toList();
	}

	/**
	 * The ceilings {@code step}'s measured demands give: carriers over the pinned time of
	 * a request, the CPU over the CPU of a request, the stand-in downstream's threads
	 * over its hold.
	 */
	public static List<Verdict.Bound> demands(Step step) {
		return ALL.stream().flatMap((kind) -> kind.demand(step).stream()).toList();
	}

	/**
	 * The knob of the resource {@code verdict} names, at any limit; empty where it has
	 * none.
	 */
	public static Optional<KnobFamily> knob(Capped verdict, AbstractServiceContainer<?> service) {
		return of(verdict.resource()).knob(verdict, service);
	}

	/**
	 * The knob Spring Boot, Quarkus or the JVM has for the resource {@code verdict}
	 * names, doubling its limit; empty for a resource with no such knob (a client pool, a
	 * lock, the machine's cores, the downstream): the test passes one of its own.
	 */
	public static Optional<Knob> doubling(Capped verdict, AbstractServiceContainer<?> service) {
		double limit = verdict.model().limit();
		return knob(verdict, service).map((family) -> family.at(2 * limit, limit));
	}

	/** {@code verdict} as every kind reads it again, in the list's order. */
	public static Capped rooted(AtCap at, Capped verdict) {
		Capped read = verdict;
		for (ResourceKind kind : ALL) {
			read = kind.rooted(at, read);
		}
		return read;
	}

	/**
	 * {@code bounds} as every kind reads them beside {@code verdict}, in the list's
	 * order.
	 */
	public static List<Verdict.Bound> unqueued(AtCap at, Verdict verdict, List<Verdict.Bound> bounds) {
		List<Verdict.Bound> read = bounds;
		for (ResourceKind kind : ALL) {
			read = kind.unqueued(at, verdict, read);
		}
		return read;
	}

}
