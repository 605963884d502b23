package dev.bottleneckkit.internal;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class JsonTest {

	@Test
	void readsAnActuatorAnswer() {
		Object answer = Json
			.parse("{\"name\":\"hikaricp.connections.usage\",\"measurements\":[{\"statistic\":\"COUNT\","
					+ "\"value\":415.0},{\"statistic\":\"TOTAL_TIME\",\"value\":4.15E2},{\"statistic\":\"MAX\",\"value\":\"NaN\"}],"
					+ "\"availableTags\":[{\"tag\":\"pool\",\"values\":[\"HikariPool-1\"]}],\"ok\":true,\"none\":null}");

		List<?> measurements = Json.array(answer, "measurements");
		assertThat(measurements).hasSize(3);
		assertThat(Json.number(measurements.get(0), "value")).isEqualTo(415.0);
		assertThat(Json.number(measurements.get(1), "value")).isEqualTo(415.0);
		assertThat(Json.number(measurements.get(2), "value")).isNaN();
		assertThat(Json.string(answer, "", "name")).isEqualTo("hikaricp.connections.usage");
		assertThat(Json.path(answer, "ok")).isEqualTo(true);
		assertThat(Json.path(answer, "none", "deeper")).isNull();
	}

	@Test
	void readsStringsWithEscapesAndBareNaN() {
		Object value = Json
			.parse(" {\"frame\":\"a\\\"b\\\\c\\u00e9\\n\", \"gauge\": NaN, \"list\": [] , \"map\": {}} ");

		assertThat(Json.string(value, "", "frame")).isEqualTo("a\"b\\cé\n");
		assertThat(Json.number(value, "gauge")).isNaN();
		assertThat(Json.path(value, "list")).isEqualTo(List.of());
		assertThat(Json.path(value, "map")).isEqualTo(Map.of());
	}

	@Test
	void saysWhereTextIsNotJson() {
		assertThatIllegalArgumentException().isThrownBy(() -> Json.parse("{\"a\":1,}"))
			.withMessage("not JSON: expected '\"' at character 7 of 8");
	}

}
