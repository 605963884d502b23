package dev.bottleneckkit.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A small JSON reader for what the kit reads (Actuator's metrics, the JVM's thread
 * dumps): objects become {@code Map<String, Object>}, arrays {@code List<Object>},
 * numbers {@code Double}, and {@link #path} walks them. The kit brings no JSON library,
 * so a team's project keeps the one its Spring Boot version manages (Jackson 2 on Boot 3,
 * Jackson 3 on Boot 4) without a conflict.
 */
public final class Json {

	private final String text;

	private int at;

	private Json(String text) {
		this.text = text;
	}

	/** The value {@code text} holds. */
	public static Object parse(String text) {
		Json json = new Json(text);
		json.skipSpace();
		Object value = json.value();
		json.skipSpace();
		if (json.at != text.length()) {
			throw json.error("nothing after the value");
		}
		return value;
	}

	/**
	 * The value at {@code keys} below {@code value} (object keys), or null when any step
	 * is missing.
	 */
	public static Object path(Object value, String... keys) {
		Object current = value;
		for (String key : keys) {
			if (!(current instanceof Map<?, ?> object)) {
				return null;
			}
			current = object.get(key);
		}
		return current;
	}

	/** The array at {@code keys} below {@code value}, or an empty list. */
	public static List<?> array(Object value, String... keys) {
		return (path(value, keys) instanceof List<?> list) ? list : List.of();
	}

	/**
	 * The number at {@code keys} below {@code value} (or a string that holds one), or
	 * NaN.
	 */
	public static double number(Object value, String... keys) {
		Object found = path(value, keys);
		if (found instanceof Number number) {
			return number.doubleValue();
		}
		if (found instanceof String string) {
			try {
				return Double.parseDouble(string);
			}
			catch (NumberFormatException ex) {
				return Double.NaN;
			}
		}
		return Double.NaN;
	}

	/**
	 * A JSON object of {@code keysAndValues}, in their order: a key, its value, the next
	 * key, …
	 */
	public static Map<String, Object> object(Object... keysAndValues) {
		Map<String, Object> object = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			object.put((String) keysAndValues[i], keysAndValues[i + 1]);
		}
		return object;
	}

	/**
	 * The object at {@code keys} below {@code value}, by key; empty where there is none.
	 */
	public static Map<String, Object> entries(Object value, String... keys) {
		Map<String, Object> entries = new LinkedHashMap<>();
		if (path(value, keys) instanceof Map<?, ?> object) {
			object.forEach((key, each) -> entries.put(String.valueOf(key), each));
		}
		return entries;
	}

	/** The number at {@code keys} below {@code value}; empty where there is none. */
	public static OptionalDouble optionalNumber(Object value, String... keys) {
		double number = number(value, keys);
		return Double.isNaN(number) ? OptionalDouble.empty() : OptionalDouble.of(number);
	}

	/** {@code value}'s number, or null (JSON's) when empty. */
	public static Object orNull(OptionalDouble value) {
		return value.isPresent() ? value.getAsDouble() : null;
	}

	/** The string at {@code keys} below {@code value}, or {@code otherwise}. */
	public static String string(Object value, String otherwise, String... keys) {
		return (path(value, keys) instanceof String string) ? string : otherwise;
	}

	/**
	 * {@code value} as JSON text: maps (keys in their order), lists, strings, numbers
	 * (NaN and infinities as null), booleans and null; two spaces of indent a level.
	 */
	public static String write(Object value) {
		StringBuilder out = new StringBuilder();
		write(out, value, 0);
		return out.append('\n').toString();
	}

	private static void write(StringBuilder out, Object value, int depth) {
		if (value == null) {
			out.append("null");
		}
		else if (value instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				out.append("{}");
				return;
			}
			out.append("{\n");
			int i = 0;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				out.append("  ".repeat(depth + 1));
				quote(out, String.valueOf(entry.getKey()));
				out.append(": ");
				write(out, entry.getValue(), depth + 1);
				out.append((++i < map.size()) ? ",\n" : "\n");
			}
			out.append("  ".repeat(depth)).append('}');
		}
		else if (value instanceof List<?> list) {
			if (list.isEmpty()) {
				out.append("[]");
				return;
			}
			out.append("[\n");
			for (int i = 0; i < list.size(); i++) {
				out.append("  ".repeat(depth + 1));
				write(out, list.get(i), depth + 1);
				out.append((i + 1 < list.size()) ? ",\n" : "\n");
			}
			out.append("  ".repeat(depth)).append(']');
		}
		else if (value instanceof Double || value instanceof Float) {
			double number = ((Number) value).doubleValue();
			out.append((Double.isNaN(number) || Double.isInfinite(number)) ? "null" : trimmed(number));
		}
		else if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else {
			quote(out, String.valueOf(value));
		}
	}

	/** 9.9 for 9.9, 4 for 4.0, at most six decimals. */
	private static String trimmed(double number) {
		if (number == Math.rint(number) && Math.abs(number) < 1e15) {
			return Long.toString((long) number);
		}
		return java.math.BigDecimal.valueOf(number)
			.setScale(6, java.math.RoundingMode.HALF_UP)
			.stripTrailingZeros()
			.toPlainString();
	}

	private static void quote(StringBuilder out, String text) {
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

	private Object value() {
		if (this.at >= this.text.length()) {
			throw error("a value");
		}
		char c = this.text.charAt(this.at);
		return switch (c) {
			case '{' -> object();
			case '[' -> array();
			case '"' -> string();
			case 't' -> literal("true", Boolean.TRUE);
			case 'f' -> literal("false", Boolean.FALSE);
			case 'n' -> literal("null", null);
			default -> number();
		};
	}

	private Map<String, Object> object() {
		Map<String, Object> object = new LinkedHashMap<>();
		this.at++;
		skipSpace();
		if (peek() == '}') {
			this.at++;
			return object;
		}
		while (true) {
			skipSpace();
			String key = string();
			skipSpace();
			expect(':');
			skipSpace();
			object.put(key, value());
			skipSpace();
			if (peek() == ',') {
				this.at++;
				continue;
			}
			expect('}');
			return object;
		}
	}

	private List<Object> array() {
		List<Object> array = new ArrayList<>();
		this.at++;
		skipSpace();
		if (peek() == ']') {
			this.at++;
			return array;
		}
		while (true) {
			skipSpace();
			array.add(value());
			skipSpace();
			if (peek() == ',') {
				this.at++;
				continue;
			}
			expect(']');
			return array;
		}
	}

	private String string() {
		expect('"');
		StringBuilder string = new StringBuilder();
		while (true) {
			if (this.at >= this.text.length()) {
				throw error("the end of a string");
			}
			char c = this.text.charAt(this.at++);
			if (c == '"') {
				return string.toString();
			}
			if (c != '\\') {
				string.append(c);
				continue;
			}
			char escaped = this.text.charAt(this.at++);
			switch (escaped) {
				case 'n' -> string.append('\n');
				case 't' -> string.append('\t');
				case 'r' -> string.append('\r');
				case 'b' -> string.append('\b');
				case 'f' -> string.append('\f');
				case 'u' -> {
					string.append((char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16));
					this.at += 4;
				}
				default -> string.append(escaped);
			}
		}
	}

	private Double number() {
		int start = this.at;
		// NaN and Infinity too, as a JSON writer may give a gauge that has no value.
		while (this.at < this.text.length() && "+-0123456789.eENaIinfty".indexOf(this.text.charAt(this.at)) >= 0) {
			this.at++;
		}
		if (start == this.at) {
			throw error("a value");
		}
		return Double.valueOf(this.text.substring(start, this.at));
	}

	private Object literal(String word, Object value) {
		if (!this.text.startsWith(word, this.at)) {
			throw error(word);
		}
		this.at += word.length();
		return value;
	}

	private void expect(char c) {
		if (peek() != c) {
			throw error("'" + c + "'");
		}
		this.at++;
	}

	private char peek() {
		return (this.at < this.text.length()) ? this.text.charAt(this.at) : '\0';
	}

	private void skipSpace() {
		while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) {
			this.at++;
		}
	}

	private IllegalArgumentException error(String expected) {
		return new IllegalArgumentException(
				"not JSON: expected " + expected + " at character " + this.at + " of " + this.text.length());
	}

}
