package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.Json;
import dev.bottleneckkit.sweep.internal.run.StepProbe;

/**
 * The rates a service's Resilience4j rate limiters are configured with, read once over
 * JMX: their names from Actuator's metrics MBean (the {@code name} tag of
 * {@code resilience4j.ratelimiter.available.permissions}), each one's settings from
 * Spring Boot's admin MBean, which answers a property's value as the service's
 * environment resolves it (relaxed names, environment variables, profiles). A rate
 * limiter's rate is not a meter, and where it waits in a dump shows no number: its
 * configuration is the only place its model can come from.
 */
public final class RateLimits {

	/** Spring Boot's admin MBean ({@code spring.application.admin.enabled}). */
	static final String ADMIN_MBEAN = "org.springframework.boot:type=Admin,name=SpringApplication";

	private static final String METRICS_MBEAN = "org.springframework.boot:type=Endpoint,name=Metrics,*";

	private static final String PREFIX = "resilience4j.ratelimiter.";

	/**
	 * Resilience4j's own defaults ({@code RateLimiterConfig}): 50 permits every 500 ns.
	 */
	private static final int DEFAULT_PERMITS = 50;

	private static final Duration DEFAULT_PERIOD = Duration.ofNanos(500);

	private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)?");

	private RateLimits() {
	}

	/**
	 * One rate limiter's rate.
	 *
	 * @param name its instance name
	 * @param permits permits a period ({@code limit-for-period})
	 * @param period how often they are renewed ({@code limit-refresh-period})
	 * @param from where each came from, for a person: the properties read, or the
	 * defaults
	 */
	public record Rate(String name, int permits, Duration period, String from) {

		/** Permits a second. */
		double rps() {
			return this.permits / (this.period.toNanos() / 1e9);
		}

	}

	/**
	 * The rate limiters of the service behind {@code agent}, each with its rate; empty
	 * when it has none, or no admin MBean to answer (then {@code blind} says so).
	 */
	public static List<Rate> read(JmxAgent agent, List<String> blind) {
		JMXConnector connector = null;
		try {
			connector = agent.connect();
			MBeanServerConnection server = connector.getMBeanServerConnection();
			Set<ObjectName> metrics = server.queryNames(new ObjectName(METRICS_MBEAN), null);
			if (metrics.isEmpty()) {
				blind.add("rate limiters: their names not read, no Actuator metrics MBean over JMX at " + agent
						+ " (management.endpoints.jmx.exposure.include=metrics)");
				return List.of();
			}
			Object answer = server.invoke(metrics.iterator().next(), "metric",
					new Object[] { PREFIX + "available.permissions", null },
					new String[] { String.class.getName(), List.class.getName() });
			List<String> names = tagValues(answer, "name");
			if (names.isEmpty()) {
				return List.of();
			}
			ObjectName admin = new ObjectName(ADMIN_MBEAN);
			if (!server.isRegistered(admin)) {
				blind.add("rate limiters " + names + ": their rates not read, no " + ADMIN_MBEAN
						+ " (spring.application.admin.enabled=true)");
				return List.of();
			}
			MBeanServerConnection reader = server;
			return resolve(names, (key) -> {
				try {
					return Optional
						.ofNullable(reader.invoke(admin, "getProperty", new Object[] { key },
								new String[] { String.class.getName() }))
						.map(String::valueOf);
				}
				catch (IOException | JMException ex) {
					throw new IllegalStateException(key + ": " + ex.getMessage(), ex);
				}
			});
		}
		catch (IOException | JMException | RuntimeException ex) {
			blind.add("rate limiters: their rates not read over JMX at " + agent + " ("
					+ StepProbe.Blind.rootMessage(ex) + ")");
			return List.of();
		}
		finally {
			if (connector != null) {
				JmxAgent.disconnect(connector, agent.name());
			}
		}
	}

	/**
	 * Each rate limiter's rate as Resilience4j's starter builds it: the instance's own
	 * setting, else its base config's ({@code base-config}, else {@code default}), else
	 * Resilience4j's default.
	 */
	static List<Rate> resolve(List<String> names, Function<String, Optional<String>> property) {
		List<Rate> rates = new ArrayList<>();
		for (String name : names) {
			String instance = PREFIX + "instances." + name + ".";
			String base = PREFIX + "configs." + property.apply(instance + "base-config").orElse("default") + ".";
			List<String> from = new ArrayList<>();
			int permits = setting(property, "limit-for-period", instance, base, from).map(Integer::parseInt)
				.orElse(DEFAULT_PERMITS);
			Duration period = setting(property, "limit-refresh-period", instance, base, from).map(RateLimits::duration)
				.orElse(DEFAULT_PERIOD);
			if (permits >= 1 && !period.isZero() && !period.isNegative()) {
				rates.add(new Rate(name, permits, period, from.isEmpty() ? "Resilience4j's defaults"
						: String.join(", ", from) + (from.size() < 2 ? ", Resilience4j's default for the other" : "")));
			}
		}
		return rates;
	}

	private static Optional<String> setting(Function<String, Optional<String>> property, String key, String instance,
			String base, List<String> from) {
		for (String prefix : List.of(instance, base)) {
			Optional<String> value = property.apply(prefix + key).map(String::trim).filter((v) -> !v.isEmpty());
			if (value.isPresent()) {
				from.add(prefix + key + "=" + value.get());
				return value;
			}
		}
		return Optional.empty();
	}

	/**
	 * A duration as Spring Boot binds one: {@code 1s}, {@code 500ms}, ISO-8601
	 * ({@code PT1S}), or a bare number of milliseconds.
	 */
	static Duration duration(String text) {
		String value = text.trim().toLowerCase(Locale.ROOT);
		Matcher simple = SIMPLE_DURATION.matcher(value);
		if (simple.matches()) {
			long amount = Long.parseLong(simple.group(1));
			String unit = (simple.group(2) != null) ? simple.group(2) : "ms";
			return switch (unit) {
				case "ns" -> Duration.ofNanos(amount);
				case "us" -> Duration.ofNanos(amount * 1000);
				case "ms" -> Duration.ofMillis(amount);
				case "s" -> Duration.ofSeconds(amount);
				case "m" -> Duration.ofMinutes(amount);
				case "h" -> Duration.ofHours(amount);
				default -> Duration.ofDays(amount);
			};
		}
		try {
			return Duration.parse(text.trim());
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException("a duration such as 1s, 500ms or PT1S, was '" + text + "'", ex);
		}
	}

	/** The values of tag {@code tag} in an Actuator metric's {@code availableTags}. */
	static List<String> tagValues(Object answer, String tag) {
		if (answer == null) {
			return List.of();
		}
		for (Object available : Json.array(answer, "availableTags")) {
			if (tag.equals(Json.string(available, "", "tag"))) {
				return Json.array(available, "values").stream().map(String::valueOf).sorted().toList();
			}
		}
		return List.of();
	}

}
