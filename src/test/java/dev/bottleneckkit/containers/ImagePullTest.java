package dev.bottleneckkit.containers;

import org.junit.jupiter.api.Test;
import org.testcontainers.utility.ConfiguredSubstitutors;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit's own pull of a service's image goes through Testcontainers' configuration, as
 * the pulls Testcontainers makes do: a company's registry mirror reaches it.
 */
class ImagePullTest {

	@Test
	void aConfiguredHubPrefixReachesTheImageTheKitPulls() {
		DockerImageName pulled = ImagePull.resolve(DockerImageName.parse("example/orders:1.4.2"),
				ConfiguredSubstitutors.hubPrefix("mirror.example.com/"));

		assertThat(pulled.asCanonicalNameString()).isEqualTo("mirror.example.com/example/orders:1.4.2");
	}

	@Test
	void anImageOfAnotherRegistryKeepsItsName() {
		DockerImageName pulled = ImagePull.resolve(DockerImageName.parse("registry.example.com/orders:1.4.2"),
				ConfiguredSubstitutors.hubPrefix("mirror.example.com/"));

		assertThat(pulled.asCanonicalNameString()).isEqualTo("registry.example.com/orders:1.4.2");
	}

}
