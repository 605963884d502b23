package dev.bottleneckkit.junit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LeftoversTest {

	@Test
	void namesWhatItRemovedAndOnWhichEngine() {
		assertThat(Leftovers.removedLine(5, 1, 0, "tcp://172.17.0.2:2375")).isEqualTo(
				"removed 5 containers, 1 network and 0 images left behind on tcp://172.17.0.2:2375 by earlier runs whose JVM is gone");
		assertThat(Leftovers.removedLine(1, 2, 1, "unix:///var/run/docker.sock"))
			.startsWith("removed 1 container, 2 networks and 1 image left behind on unix:///var/run/docker.sock");
	}

}
