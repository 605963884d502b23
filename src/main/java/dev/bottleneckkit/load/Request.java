package dev.bottleneckkit.load;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.bottleneckkit.internal.Knobs;

/**
 * One request a load sends: method, URI, headers and body, and its weight in a mix of
 * routes. A load given several sends each user's next request drawn by weight, and
 * reports every route's figures beside the whole ({@link LoadResult#byRoute()}).
 *
 * <pre>{@code
 * ClosedLoopLoad.users(40).run(
 *     Request.get(orders.uri("/orders/42")).weight(8),
 *     Request.post(orders.uri("/orders"), "{\"item\":\"book\"}")
 *         .header("Authorization", "Bearer " + token)
 *         .weight(2));
 * }</pre>
 *
 * @param name the route's name in results and reports ({@code "POST /orders"} unless
 * given)
 * @param method the HTTP method, upper case
 * @param uri where it goes: {@code http://host[:port]/path?query}; every request of a mix
 * goes to one host and port
 * @param headers extra headers, in order (Host, User-Agent and, with a body,
 * Content-Length are the load's)
 * @param body the body, sent as UTF-8; empty for none
 * @param weight how often it is drawn against the others of a mix, 1 to 1000
 */
public record Request(String name, String method, URI uri, Map<String, String> headers, String body, int weight) {

	public Request {
		if (method == null || !method.matches("[A-Z]+")) {
			throw new IllegalArgumentException("method must be an HTTP method in upper case, was '" + method + "'");
		}
		if (uri == null || !"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
			throw new IllegalArgumentException(
					"the load sends plain HTTP/1.1: the URI must be http://host[:port]/path, was " + uri);
		}
		headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
		for (String header : headers.keySet()) {
			if (!header.matches("[A-Za-z0-9-]+") || header.equalsIgnoreCase("Content-Length")
					|| header.equalsIgnoreCase("Host")) {
				throw new IllegalArgumentException(
						"header must be a plain name other than Host and Content-Length, was '" + header + "'");
			}
		}
		body = (body == null) ? "" : body;
		Knobs.between("weight", weight, 1, 1000);
	}

	/** A GET of {@code uri}. */
	public static Request get(URI uri) {
		return of("GET", uri, "");
	}

	/**
	 * A POST of {@code body} (UTF-8) to {@code uri}, as {@code application/json} unless a
	 * header says otherwise.
	 */
	public static Request post(URI uri, String body) {
		return of("POST", uri, body).header("Content-Type", "application/json");
	}

	/**
	 * A request of any {@code method} (PUT, DELETE, PATCH, …) with {@code body} (empty
	 * for none).
	 */
	public static Request of(String method, URI uri, String body) {
		return new Request(defaultName(method, uri), method, uri, Map.of(), body, 1);
	}

	/**
	 * The same request with the header {@code name: value} (replacing one of the same
	 * name).
	 */
	public Request header(String name, String value) {
		Map<String, String> more = new LinkedHashMap<>(this.headers);
		more.put(name, value);
		return new Request(this.name, this.method, this.uri, more, this.body, this.weight);
	}

	/**
	 * The same request drawn {@code weight} times as often as a request of weight 1 (1 to
	 * 1000).
	 */
	public Request weight(int weight) {
		return new Request(this.name, this.method, this.uri, this.headers, this.body, weight);
	}

	/** The same request under {@code name} in results and reports. */
	public Request named(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("name must say which route this is, was '" + name + "'");
		}
		return new Request(name, this.method, this.uri, this.headers, this.body, this.weight);
	}

	/**
	 * The same request to another host and port ({@code base}'s), path and query kept:
	 * for a service that came back on a new port.
	 */
	public Request at(URI base) {
		URI moved = URI
			.create(base.getScheme() + "://" + base.getHost() + ((base.getPort() > 0) ? ":" + base.getPort() : "")
					+ ((this.uri.getRawPath() == null || this.uri.getRawPath().isEmpty()) ? "/" : this.uri.getRawPath())
					+ ((this.uri.getRawQuery() != null) ? "?" + this.uri.getRawQuery() : ""));
		return new Request(this.name, this.method, moved, this.headers, this.body, this.weight);
	}

	/** The request as it goes on the wire. */
	byte[] bytes() {
		String path = (this.uri.getRawPath() == null || this.uri.getRawPath().isEmpty()) ? "/" : this.uri.getRawPath();
		if (this.uri.getRawQuery() != null) {
			path += "?" + this.uri.getRawQuery();
		}
		byte[] content = this.body.getBytes(StandardCharsets.UTF_8);
		StringBuilder head = new StringBuilder(this.method).append(' ')
			.append(path)
			.append(" HTTP/1.1\r\nHost: ")
			.append(hostAndPort())
			.append("\r\nUser-Agent: bottleneck-kit\r\n");
		this.headers.forEach((header, value) -> head.append(header).append(": ").append(value).append("\r\n"));
		if (content.length > 0 || !this.method.equals("GET")) {
			head.append("Content-Length: ").append(content.length).append("\r\n");
		}
		byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
		byte[] all = new byte[start.length + content.length];
		System.arraycopy(start, 0, all, 0, start.length);
		System.arraycopy(content, 0, all, start.length, content.length);
		return all;
	}

	/** {@code host:port} as the Host header gives it. */
	String hostAndPort() {
		return (this.uri.getPort() > 0) ? this.uri.getHost() + ":" + this.uri.getPort() : this.uri.getHost();
	}

	private static String defaultName(String method, URI uri) {
		String path = (uri == null || uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
		return String.valueOf(method).toUpperCase(Locale.ROOT) + " " + path;
	}

}
