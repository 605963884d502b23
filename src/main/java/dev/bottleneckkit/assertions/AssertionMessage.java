package dev.bottleneckkit.assertions;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.assertj.core.error.BasicErrorMessageFactory;

/**
 * One assertion failure's message, AssertJ's way ({@code org.assertj.core.error}): a
 * class a message, built from the figures of the result it is about. Numbers are filled
 * in {@code Locale.ROOT}, so that a verdict reads the same on a German laptop ("10.0
 * rps", never "10,0 rps"); the assertion throws it with {@code throwAssertionError},
 * which puts its description ({@code as(...)}) in front. {@code AssertionMessagesTest}
 * pins every one.
 */
abstract class AssertionMessage extends BasicErrorMessageFactory {

	AssertionMessage(String format, Object... arguments) {
		super("%s", unquotedString(String.format(Locale.ROOT, format, arguments)));
	}

	/** A rate as every message prints it: "10.0 rps". */
	static String rps(double rps) {
		return String.format(Locale.ROOT, "%.1f rps", rps);
	}

	/** A share as a whole percentage: 0.153 → 15. */
	static long percent(double share) {
		return Math.round(share * 100);
	}

	/**
	 * Failures by kind, the most frequent first, as every message prints them: "412 ×
	 * http-404, 3 × read-timeout".
	 */
	static String byKind(Map<String, Long> errors) {
		return errors.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.map((kind) -> kind.getValue() + " × " + kind.getKey())
			.collect(Collectors.joining(", "));
	}

}
