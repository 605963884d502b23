package dev.bottleneckkit.sweep.internal.run;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.internal.Console;
import org.testcontainers.utility.DockerImageName;

/**
 * The run-wide A/B switch: {@code -Dbottleneck.against=IMAGE} (or the environment's
 * {@code BOTTLENECK_AGAINST}) makes every sweep of a service whose image is of the same
 * repository an A/B sweep against {@code IMAGE}, with no change to the test: a pull
 * request's pipeline names main's image once. {@code none} says the run has no base (a
 * push to main): the sweeps run alone and {@code hasNotRegressedAgainstItsBase} is
 * skipped with one line that says why.
 */
public final class RunWide {

	/** The system property that names the base image for the whole run. */
	static final String PROPERTY = "bottleneck.against";

	/** The environment variable that does, when the property is not set. */
	static final String VARIABLE = "BOTTLENECK_AGAINST";

	/** The value that says the run has no base image. */
	static final String NONE = "none";

	/** The sweeps already told the switch does not apply to them, by name. */
	private static final Set<String> told = ConcurrentHashMap.newKeySet();

	private RunWide() {
	}

	/** The base image the run names for {@code service}, if any and if it applies. */
	public static Optional<DockerImageName> against(AbstractServiceContainer<?> service, String sweep) {
		String value = value();
		if (value.isEmpty() || value.equals(NONE) || service == null) {
			return Optional.empty();
		}
		DockerImageName base = DockerImageName.parse(value);
		Optional<DockerImageName> head = service.image();
		if (head.isPresent() && head.get().getRepository().equals(base.getRepository())) {
			return Optional.of(base);
		}
		if (told.add(sweep)) {
			Console.line(sweep + ": " + PROPERTY + "=" + value + " does not apply: the service's image is "
					+ head.map(DockerImageName::asCanonicalNameString).orElse("built in the run")
					+ ", of another repository");
		}
		return Optional.empty();
	}

	/**
	 * Whether the run says it has no base image ({@code -Dbottleneck.against=none}, as
	 * the guard workflow does on a push): an A/B assertion is then skipped, never failed.
	 */
	public static boolean saysItHasNoBase() {
		return value().equals(NONE);
	}

	private static String value() {
		String value = System.getProperty(PROPERTY, System.getenv(VARIABLE));
		return (value == null) ? "" : value.trim();
	}

}
