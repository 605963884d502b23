package dev.bottleneckkit.internal;

import java.time.Duration;
import java.util.Locale;

/**
 * Range checks shared by the kit's builders: one message shape, naming the knob and its
 * range.
 */
public final class Knobs {

	private Knobs() {
	}

	public static int between(String knob, int value, int min, int max) {
		if (value < min || value > max) {
			throw new IllegalArgumentException(knob + " must be between " + min + " and " + max + ", was " + value);
		}
		return value;
	}

	public static long between(String knob, long value, long min, long max) {
		if (value < min || value > max) {
			throw new IllegalArgumentException(knob + " must be between " + min + " and " + max + ", was " + value);
		}
		return value;
	}

	public static double between(String knob, double value, double min, double max) {
		if (!(value >= min && value <= max)) {
			throw new IllegalArgumentException(knob + " must be between " + min + " and " + max + ", was " + value);
		}
		return value;
	}

	public static Duration between(String knob, Duration value, Duration min, Duration max) {
		if (value == null) {
			throw new IllegalArgumentException(
					knob + " must be set (between " + human(min) + " and " + human(max) + ")");
		}
		if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			throw new IllegalArgumentException(
					knob + " must be between " + human(min) + " and " + human(max) + ", was " + human(value));
		}
		return value;
	}

	/** 500 ms, 1.5 s, 2 min: durations as people write them. */
	public static String human(Duration duration) {
		long millis = duration.toMillis();
		if (millis < 1000) {
			return millis + " ms";
		}
		if (millis < 120_000) {
			return (millis % 1000 == 0) ? (millis / 1000) + " s"
					: String.format(java.util.Locale.ROOT, "%.2f s", millis / 1000.0);
		}
		return duration.toMinutes() + " min";
	}

	/** 2 → "2", 1.5 → "1.50": a limit as a knob's name or a verdict says it. */
	public static String count(double value) {
		return (value == Math.rint(value)) ? String.format(Locale.ROOT, "%.0f", value)
				: String.format(Locale.ROOT, "%.2f", value);
	}

}
