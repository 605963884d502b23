package dev.bottleneckkit.internal;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random passwords for what the kit starts (JMX agents, databases): new for every
 * container, never logged.
 */
public final class Passwords {

	private static final SecureRandom random = new SecureRandom();

	private Passwords() {
	}

	/**
	 * 24 random bytes, URL-safe Base64: 32 characters that need no quoting in a flag, a
	 * file or a URL.
	 */
	public static String random() {
		byte[] bytes = new byte[24];
		random.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
