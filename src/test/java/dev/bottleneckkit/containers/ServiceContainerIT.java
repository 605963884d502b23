package dev.bottleneckkit.containers;

import java.time.Duration;

import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.scenarios.lab.LabServiceContainer;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Network;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A service that cannot start says in one line what to change: the image, or the health
 * path and its log.
 */
@Scenario(id = "K3", title = "Service containers that cannot start")
class ServiceContainerIT {

	static final Network network = KitContainers.newNetwork();

	@Test
	void anImageThatIsNowhereFailsAtOnceNamingTheImageAndTheSwitch() {
		try (ServiceContainer service = new ServiceContainer("bottleneck-kit/no-such-service:0.0.0")) {
			assertThatIllegalStateException().isThrownBy(service::start)
				.withMessageStartingWith(
						"Service no-such-service: image bottleneck-kit/no-such-service:0.0.0 is not on this"
								+ " Docker engine and could not be pulled (")
				.withMessageEndingWith("). Build or pull it, or name another image; the kit's own images switch with"
						+ " -Dbottleneck.images=offline");
		}
	}

	@Test
	void aServiceThatNeverAnswersItsHealthPathFailsNamingThePathTheWaitAndItsLastLogLines() {
		try (LabServiceContainer service = LabServiceContainer.downstream(network)) {
			service.withHealthPath("/no-such-health").withStartupTimeout(Duration.ofSeconds(20));

			assertThatIllegalStateException().isThrownBy(service::start)
				.withMessageStartingWith("Service downstream (an image built for this run) did not answer 200 on"
						+ " /no-such-health (port 8080) within 20 s: fix withHealthPath/withPort, or give it longer with"
						+ " withStartupTimeout. Its last log lines:\n  | ")
				.withMessageContaining("Tomcat started on port 8080")
				.withMessageContaining("(all of it: ");
		}
	}

}
