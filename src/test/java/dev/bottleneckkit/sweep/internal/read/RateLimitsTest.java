package dev.bottleneckkit.sweep.internal.read;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.bottleneckkit.internal.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A rate limiter's rate as Resilience4j's Spring Boot starter builds it from the
 * service's properties, read one property at a time as the admin MBean answers them.
 */
class RateLimitsTest {

	private static final String R4J = "resilience4j.ratelimiter.";

	@Test
	void anInstancesOwnSettingsComeFirst() {
		List<RateLimits.Rate> rates = RateLimits.resolve(List.of("quotes"),
				properties(Map.of(R4J + "instances.quotes.limit-for-period", "20",
						R4J + "instances.quotes.limit-refresh-period", "1s", R4J + "configs.default.limit-for-period",
						"5")));

		assertThat(rates).singleElement().satisfies((rate) -> {
			assertThat(rate.permits()).isEqualTo(20);
			assertThat(rate.period()).isEqualTo(Duration.ofSeconds(1));
			assertThat(rate.rps()).isEqualTo(20.0);
			assertThat(rate.from()).isEqualTo(
					R4J + "instances.quotes.limit-for-period=20, " + R4J + "instances.quotes.limit-refresh-period=1s");
		});
	}

	@Test
	void whatAnInstanceLeavesOutComesFromItsBaseConfigElseTheDefaults() {
		List<RateLimits.Rate> rates = RateLimits.resolve(List.of("quotes", "search"),
				properties(Map.of(R4J + "instances.quotes.base-config", "partners",
						R4J + "configs.partners.limit-for-period", "10", R4J + "configs.partners.limit-refresh-period",
						"PT0.5S", R4J + "configs.default.limit-for-period", "40")));

		assertThat(rates).extracting(RateLimits.Rate::rps).containsExactly(20.0, 40.0 / 500e-9);
		assertThat(rates.get(1).from())
			.isEqualTo(R4J + "configs.default.limit-for-period=40, Resilience4j's default for the other");
	}

	@Test
	void durationsReadAsSpringBootBindsThem() {
		assertThat(RateLimits.duration("500ms")).isEqualTo(Duration.ofMillis(500));
		assertThat(RateLimits.duration("2s")).isEqualTo(Duration.ofSeconds(2));
		assertThat(RateLimits.duration("PT1M")).isEqualTo(Duration.ofMinutes(1));
		assertThat(RateLimits.duration("250")).as("a bare number is milliseconds").isEqualTo(Duration.ofMillis(250));
		assertThatIllegalArgumentException().isThrownBy(() -> RateLimits.duration("soon"))
			.withMessage("a duration such as 1s, 500ms or PT1S, was 'soon'");
	}

	@Test
	void theRateLimitersNamesAreTheNameTagOfItsMeter() {
		Object answer = Json.parse("{\"name\":\"resilience4j.ratelimiter.available.permissions\","
				+ "\"measurements\":[{\"statistic\":\"VALUE\",\"value\":3}],"
				+ "\"availableTags\":[{\"tag\":\"name\",\"values\":[\"search\",\"quotes\"]}]}");

		assertThat(RateLimits.tagValues(answer, "name")).containsExactly("quotes", "search");
		assertThat(RateLimits.tagValues(null, "name")).isEmpty();
	}

	private static java.util.function.Function<String, Optional<String>> properties(Map<String, String> values) {
		return (key) -> Optional.ofNullable(values.get(key));
	}

}
