package dev.bottleneckkit.containers;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The stand-in's routes and readings, without Docker. */
class DownstreamContainerTest {

	@Test
	void aRouteTravelsToTheServerAsItsSpecAndBack() {
		DownstreamContainer.Route route = DownstreamContainer.route("/search")
			.latencyBetween(Duration.ofMillis(50), Duration.ofMillis(400))
			.status(503)
			.bodyBytes(2048);

		DownstreamServer.Route parsed = DownstreamServer.Route.parse(route.spec());

		assertThat(parsed).isEqualTo(new DownstreamServer.Route("/search", 50, 400, 503, 2048, false));
		assertThat(DownstreamServer.Route.parse(DownstreamContainer.route("/pay").resetting().spec()).reset()).isTrue();
	}

	@Test
	void anInFlightReadingIsParsed() {
		DownstreamContainer.InFlight seen = DownstreamContainer.InFlight
			.parse("{\"current\":2,\"peak\":10,\"completed\":415,\"meanServiceTimeMs\":301.250}");

		assertThat(seen).isEqualTo(new DownstreamContainer.InFlight(2, 10, 415, Duration.ofNanos(301_250_000)));
	}

	@Test
	void badRoutesAreRejectedNamingTheKnob() {
		assertThatIllegalArgumentException().isThrownBy(() -> DownstreamContainer.route("pay"))
			.withMessage("path must start with / and have no query, was 'pay'");
		assertThatIllegalArgumentException().isThrownBy(() -> DownstreamContainer.route("/pay").status(99))
			.withMessage("status must be between 100 and 599, was 99");
		assertThatIllegalArgumentException().isThrownBy(
				() -> DownstreamContainer.route("/pay").latencyBetween(Duration.ofMillis(300), Duration.ofMillis(100)))
			.withMessageStartingWith("latency must be between 300 ms and 10 min, was 100 ms");
	}

}
