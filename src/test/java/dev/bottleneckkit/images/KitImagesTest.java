package dev.bottleneckkit.images;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KitImagesTest {

	private final String before = System.getProperty(KitImages.SWITCH);

	@AfterEach
	void restoreSwitch() {
		if (this.before == null) {
			System.clearProperty(KitImages.SWITCH);
		}
		else {
			System.setProperty(KitImages.SWITCH, this.before);
		}
	}

	@Test
	void officialImagesByDefault() {
		System.setProperty(KitImages.SWITCH, "official");

		assertThat(KitImages.mysql().asCanonicalNameString()).isEqualTo("mysql:8.4");
		assertThat(KitImages.toxiproxy().asCanonicalNameString()).isEqualTo("ghcr.io/shopify/toxiproxy:2.12.0");
		assertThat(KitImages.java(KitImages.JavaRuntime.JAVA_21).asCanonicalNameString())
			.isEqualTo("eclipse-temurin:21-jre");
		assertThat(KitImages.java(KitImages.JavaRuntime.JAVA_25).asCanonicalNameString())
			.isEqualTo("eclipse-temurin:25-jre");
	}

	@Test
	void offlineSetStandsInForTheOfficialNames() {
		System.setProperty(KitImages.SWITCH, "offline");

		assertThat(KitImages.mysql().isCompatibleWith(org.testcontainers.utility.DockerImageName.parse("mysql")))
			.as("MySQLContainer accepts the stand-in")
			.isTrue();
		assertThat(KitImages.toxiproxy().getUnversionedPart()).isEqualTo("bottleneck-kit/toxiproxy");
		assertThat(KitImages.java(KitImages.JavaRuntime.JAVA_25).asCanonicalNameString())
			.isEqualTo("bottleneck-kit/temurin:25-jre");
	}

	@Test
	void aBadSwitchNamesItsAllowedValues() {
		System.setProperty(KitImages.SWITCH, "mirror");

		assertThatIllegalArgumentException().isThrownBy(KitImages::mysql)
			.withMessage("system property bottleneck.images must be 'official' or 'offline', was 'mirror'");
	}

}
