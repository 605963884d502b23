package dev.bottleneckkit.containers;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.bottleneckkit.internal.RunHook;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerFetchException;
import org.testcontainers.images.PullPolicy;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.ImageNameSubstitutor;
import org.testcontainers.utility.RegistryAuthLocator;

/**
 * Pulls a service's image once, so that a name that exists nowhere fails at once; the
 * name goes through Testcontainers' configuration first, as every image Testcontainers
 * pulls does: its {@code ImageNameSubstitutor} (a company's registry mirror,
 * {@code hub.image.name.prefix}) and its pull policy.
 */
final class ImagePull {

	private ImagePull() {
	}

	/**
	 * An image that is not on the engine is pulled once, here, so that a name that exists
	 * nowhere fails at once rather than after Testcontainers' pull retries (two minutes
	 * by default).
	 */
	static void ensure(DockerImageName imageName, Duration timeout) {
		if (imageName == null) {
			return;
		}
		DockerImageName resolved = resolve(imageName, ImageNameSubstitutor.instance());
		String image = resolved.asCanonicalNameString();
		DockerClient docker = DockerClientFactory.lazyClient();
		boolean present;
		try {
			docker.inspectImageCmd(image).exec();
			present = true;
		}
		catch (NotFoundException absent) {
			present = false;
		}
		if (present && !PullPolicy.defaultPolicy().shouldPull(resolved)) {
			return;
		}
		try (RunHook.Span pulling = RunHook.installed().begin(RunHook.Work.IMAGE, "pulling " + resolved)) {
			pull(docker, resolved, timeout);
		}
	}

	/**
	 * The name Testcontainers would pull for {@code imageName}: after its substitutor.
	 */
	static DockerImageName resolve(DockerImageName imageName, ImageNameSubstitutor substitutor) {
		return substitutor.apply(imageName);
	}

	private static void pull(DockerClient docker, DockerImageName imageName, Duration timeout) {
		String image = imageName.asCanonicalNameString();
		try {
			docker.pullImageCmd(imageName.getUnversionedPart())
				.withTag(imageName.getVersionPart())
				.withAuthConfig(RegistryAuthLocator.instance().lookupAuthConfig(imageName, docker.authConfig()))
				.exec(new PullImageResultCallback())
				.awaitCompletion(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ContainerFetchException("pull of " + image + " interrupted", ex);
		}
		catch (RuntimeException ex) {
			throw new ContainerFetchException("pull of " + image + " failed", ex);
		}
	}

}
