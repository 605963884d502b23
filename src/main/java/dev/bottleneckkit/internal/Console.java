package dev.bottleneckkit.internal;

import java.io.PrintStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a person reads in {@code mvn verify}'s output while the kit works: one line per
 * sweep step or load, and each verdict, as Gatling's console prints them. Written to the
 * test's standard output, which Maven's Surefire and Failsafe show, whether or not the
 * project has an SLF4J provider; the same line goes to SLF4J at DEBUG only, so that a
 * project with a provider does not see it twice.
 */
public final class Console {

	private static final Logger log = LoggerFactory.getLogger("dev.bottleneckkit");

	/** Where lines go; the test's standard output as the JVM started. */
	private static final PrintStream out = System.out;

	private Console() {
	}

	/** Prints {@code [bottleneck-kit] line}. */
	public static void line(String line) {
		synchronized (out) {
			out.println("[bottleneck-kit] " + line);
			out.flush();
		}
		log.debug(line);
	}

}
