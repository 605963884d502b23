package dev.bottleneckkit.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One scrape in the Prometheus text format (0.0.4), which every Micrometer registry
 * speaks: Spring Boot's {@code /actuator/prometheus}, Quarkus' {@code /q/metrics},
 * Micronaut's and Helidon's. A Micrometer meter is found under the name Micrometer's
 * Prometheus naming gives it: dots and dashes become underscores, a gauge may carry its
 * base unit ({@code tomcat.threads.busy} is {@code tomcat_threads_busy_threads}), a
 * timer's count and total are {@code _seconds_count} and {@code _seconds_sum}.
 */
final class PrometheusText {

	/**
	 * Base units Micrometer's meters append to a gauge's name ({@code BaseUnits}): a
	 * gauge is found with or without one.
	 */
	private static final List<String> UNITS = List.of("threads", "connections", "sessions", "requests", "tasks",
			"bytes", "seconds", "events", "buffers", "classes", "files", "objects", "operations", "rows", "percent");

	/** Every series of the scrape: its name, its labels, its value. */
	private final List<Series> series;

	private PrometheusText(List<Series> series) {
		this.series = series;
	}

	/**
	 * The series of {@code text}; comments and lines it cannot read are skipped (a
	 * histogram's bucket reads like any other series).
	 */
	static PrometheusText parse(String text) {
		List<Series> series = new ArrayList<>();
		for (String line : text.split("\n")) {
			Series one = Series.parse(line.strip());
			if (one != null) {
				series.add(one);
			}
		}
		return new PrometheusText(series);
	}

	/** How many series the scrape has. */
	int size() {
		return this.series.size();
	}

	/** Whether the scrape has the Micrometer meter {@code meter} at all. */
	boolean has(String meter) {
		String name = name(meter);
		return this.series.stream().anyMatch((one) -> one.name().equals(name) || one.name().startsWith(name + "_"));
	}

	/**
	 * {@code gauge}'s statistic: the sum over the series whose labels match its tags (the
	 * largest for {@code MAX}), as Actuator's metrics endpoint merges meters of one name;
	 * empty when the scrape has none.
	 */
	OptionalDouble value(Gauge gauge) {
		for (String candidate : candidates(gauge)) {
			boolean found = false;
			double value = gauge.statistic().equals("MAX") ? Double.NEGATIVE_INFINITY : 0;
			for (Series one : this.series) {
				if (one.name().equals(candidate) && one.matches(gauge.tags())) {
					found = true;
					value = gauge.statistic().equals("MAX") ? Math.max(value, one.value()) : value + one.value();
				}
			}
			if (found) {
				return OptionalDouble.of(value);
			}
		}
		return OptionalDouble.empty();
	}

	/**
	 * The names a Micrometer meter's statistic may have in the text, in the order they
	 * are tried.
	 */
	static List<String> candidates(Gauge gauge) {
		String name = name(gauge.meter());
		List<String> candidates = new ArrayList<>();
		switch (gauge.statistic()) {
			case "COUNT" -> candidates.addAll(List.of(name + "_seconds_count", name + "_count", name + "_total"));
			case "TOTAL_TIME" -> candidates.addAll(List.of(name + "_seconds_sum", name + "_sum"));
			case "MAX" -> candidates.addAll(List.of(name + "_seconds_max", name + "_max"));
			default -> {
				candidates.add(name);
				UNITS.forEach((unit) -> candidates.add(name + "_" + unit));
				candidates.add(name + "_total");
			}
		}
		return candidates;
	}

	/** {@code meter} as Micrometer's Prometheus naming writes it. */
	static String name(String meter) {
		return meter.replace('.', '_').replace('-', '_');
	}

	/**
	 * One line of the text: {@code name{label="value",...} value [timestamp]}.
	 */
	record Series(String name, Map<String, String> labels, double value) {

		/** {@code tags} ({@code key:value}, Actuator's form) all among the labels. */
		boolean matches(List<String> tags) {
			for (String tag : tags) {
				int colon = tag.indexOf(':');
				if (!tag.substring(colon + 1).equals(this.labels.get(PrometheusText.name(tag.substring(0, colon))))) {
					return false;
				}
			}
			return true;
		}

		/** The series on {@code line}; null for a comment, a blank or unreadable line. */
		static Series parse(String line) {
			if (line.isEmpty() || line.startsWith("#")) {
				return null;
			}
			int at = 0;
			while (at < line.length() && line.charAt(at) != '{' && line.charAt(at) != ' ') {
				at++;
			}
			String name = line.substring(0, at);
			Map<String, String> labels = new LinkedHashMap<>();
			if (at < line.length() && line.charAt(at) == '{') {
				at++;
				while (at < line.length() && line.charAt(at) != '}') {
					int equals = line.indexOf('=', at);
					if (equals < 0 || equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
						return null;
					}
					String key = line.substring(at, equals).strip();
					StringBuilder value = new StringBuilder();
					int i = equals + 2;
					for (; i < line.length() && line.charAt(i) != '"'; i++) {
						char c = line.charAt(i);
						if (c == '\\' && i + 1 < line.length()) {
							char next = line.charAt(++i);
							value.append(next == 'n' ? '\n' : next);
						}
						else {
							value.append(c);
						}
					}
					labels.put(key, value.toString());
					at = i + 1;
					while (at < line.length() && (line.charAt(at) == ',' || line.charAt(at) == ' ')) {
						at++;
					}
				}
				at++;
			}
			String[] rest = line.substring(Math.min(at, line.length())).strip().split("\\s+");
			if (name.isEmpty() || rest.length == 0 || rest[0].isEmpty()) {
				return null;
			}
			try {
				return new Series(name, labels, number(rest[0]));
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}

		private static double number(String text) {
			return switch (text) {
				case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
				case "-Inf" -> Double.NEGATIVE_INFINITY;
				case "NaN" -> Double.NaN;
				default -> Double.parseDouble(text);
			};
		}

	}

}
