package org.testcontainers.utility;

import java.util.Map;
import java.util.Properties;

/**
 * Testcontainers' own prefixing substitutor, configured as a company's build would
 * configure it ({@code TESTCONTAINERS_HUB_IMAGE_NAME_PREFIX}), for tests that check the
 * kit's pulls go through it. Lives in Testcontainers' package for its package-private
 * constructors.
 */
public final class ConfiguredSubstitutors {

	private ConfiguredSubstitutors() {
	}

	/**
	 * The substitutor Testcontainers builds for {@code hub.image.name.prefix = prefix}.
	 */
	public static ImageNameSubstitutor hubPrefix(String prefix) {
		return new PrefixingImageNameSubstitutor(new TestcontainersConfiguration(new Properties(), new Properties(),
				Map.of("TESTCONTAINERS_HUB_IMAGE_NAME_PREFIX", prefix)));
	}

}
