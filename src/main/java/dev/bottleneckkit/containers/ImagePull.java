package dev.bottleneckkit.containers;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerFetchException;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.RegistryAuthLocator;

/** Pulls a service's image once, so that a name that exists nowhere fails at once. */
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
		String image = imageName.asCanonicalNameString();
		DockerClient docker = DockerClientFactory.lazyClient();
		try {
			docker.inspectImageCmd(image).exec();
			return;
		}
		catch (NotFoundException absent) {
			// pull it below
		}
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
