package dev.bottleneckkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Marks a container scenario. Before any container starts it checks that Docker answers
 * (one clear line if not) and removes what a killed earlier run left behind; then
 * Testcontainers manages the {@code @Container} fields; each test can take a
 * {@link ScenarioReport} parameter to record its runs in
 * {@code target/bottleneck-report/}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag("scenario")
@ExtendWith(ScenarioExtension.class)
@Testcontainers
public @interface Scenario {

	/** Short id used in the report, e.g. "S1". */
	String id();

	/** What the scenario shows, in one sentence. */
	String title();

}
