package dev.bottleneckkit.load;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one HTTP/1.1 answer from bytes as they arrive, in any pieces: the status, the
 * headers that frame the body ({@code Content-Length},
 * {@code Transfer-Encoding: chunked}, {@code Connection}), and the body, which it skips,
 * keeping the first 4 KiB of a failed answer to name its error kind. As RFC 9112 says: an
 * answer to a {@code HEAD} has no body whatever its {@code Content-Length}; interim
 * answers ({@code 100 Continue}, {@code 103 Early Hints}) are skipped for the final one;
 * {@code Connection} is a list of tokens, and {@code close} among them closes. No string
 * per header: the load driver parses every answer on two cores it shares with the service
 * it measures.
 */
final class ResponseParser {

	private static final Pattern ERROR_KIND = Pattern.compile("\"error\"\\s*:\\s*\"([A-Za-z0-9._-]{1,40})\"");

	private static final byte[] HTTP = ascii("HTTP/1.");

	private static final byte[] HTTP_1_0 = ascii("HTTP/1.0");

	private static final byte[] CONTENT_LENGTH = ascii("content-length:");

	private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding:");

	private static final byte[] CONNECTION = ascii("connection:");

	/** Of a failed answer's body, this much is kept to find its error kind. */
	private static final int FAILURE_BODY_KEPT = 4096;

	private static final int MAX_LINE = 65_536;

	private enum State {

		STATUS, HEADERS, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UNTIL_CLOSE, DONE

	}

	private State state = State.STATUS;

	private byte[] line = new byte[256];

	private int lineLength;

	private int status;

	private boolean keepAlive;

	private long contentLength;

	private boolean chunked;

	private long left;

	private StringBuilder kept;

	private boolean anyByte;

	/** Whether the answer is to a {@code HEAD}: no body follows its headers. */
	private boolean head;

	/** Whether a {@code Connection} header asked to close after this answer. */
	private boolean closeAsked;

	/** Ready for the next answer on the same connection, to a {@code HEAD} or not. */
	void reset(boolean head) {
		reset();
		this.head = head;
	}

	/** Ready for the next answer on the same connection. */
	void reset() {
		this.head = false;
		this.state = State.STATUS;
		this.lineLength = 0;
		this.status = 0;
		this.keepAlive = false;
		this.contentLength = -1;
		this.chunked = false;
		this.left = 0;
		this.kept = null;
		this.anyByte = false;
		this.closeAsked = false;
	}

	/**
	 * Reads what {@code bytes} holds; true once the answer is complete (bytes after it
	 * are left in the buffer).
	 */
	boolean feed(ByteBuffer bytes) throws IOException {
		if (bytes.hasRemaining()) {
			this.anyByte = true;
		}
		while (this.state != State.DONE) {
			switch (this.state) {
				case STATUS, HEADERS, CHUNK_SIZE, CHUNK_END, TRAILERS -> {
					if (!readLine(bytes)) {
						return false;
					}
					onLine();
				}
				case BODY, CHUNK_DATA -> {
					if (!skip(bytes)) {
						return false;
					}
					this.state = (this.state == State.BODY) ? State.DONE : State.CHUNK_END;
				}
				case UNTIL_CLOSE -> {
					this.left = Long.MAX_VALUE;
					skip(bytes);
					return false;
				}
				case DONE -> {
					return true;
				}
			}
		}
		return true;
	}

	/**
	 * The connection closed: true when that ends the answer (a body without a length),
	 * false when the answer was cut short.
	 */
	boolean closed() {
		if (this.state == State.UNTIL_CLOSE) {
			this.state = State.DONE;
			this.keepAlive = false;
			return true;
		}
		return this.state == State.DONE;
	}

	/** Whether any byte of this answer arrived. */
	boolean started() {
		return this.anyByte;
	}

	/** The connection may carry the next request. */
	boolean keepAlive() {
		return this.keepAlive;
	}

	/**
	 * Null for a 2xx answer, else {@code http-<status>} and the error the body names, if
	 * it names one.
	 */
	String failure() {
		if (this.status >= 200 && this.status < 300) {
			return null;
		}
		Matcher kind = (this.kept != null) ? ERROR_KIND.matcher(this.kept) : null;
		return (kind != null && kind.find()) ? "http-" + this.status + " " + kind.group(1) : "http-" + this.status;
	}

	private void onLine() throws IOException {
		switch (this.state) {
			case STATUS -> {
				this.status = parseStatus();
				this.keepAlive = !startsWith(HTTP_1_0);
				this.kept = (this.status >= 200 && this.status < 300) ? null : new StringBuilder();
				this.state = State.HEADERS;
			}
			case HEADERS -> {
				if (this.lineLength == 0) {
					startBody();
				}
				else if (startsWithIgnoreCase(CONTENT_LENGTH)) {
					this.contentLength = parseNumber(CONTENT_LENGTH.length, this.lineLength, 10);
				}
				else if (startsWithIgnoreCase(TRANSFER_ENCODING)) {
					this.chunked = value(TRANSFER_ENCODING.length).toLowerCase(java.util.Locale.ROOT)
						.contains("chunked");
				}
				else if (startsWithIgnoreCase(CONNECTION)) {
					// A list of tokens (RFC 9110 7.6.1): "close, TE" closes as "close"
					// does.
					for (String token : value(CONNECTION.length).split(",")) {
						if (token.trim().equalsIgnoreCase("close")) {
							this.closeAsked = true;
						}
						else if (token.trim().equalsIgnoreCase("keep-alive")) {
							this.keepAlive = true;
						}
					}
				}
			}
			case CHUNK_SIZE -> {
				int end = 0;
				while (end < this.lineLength && this.line[end] != ';' && this.line[end] != ' ') {
					end++;
				}
				this.left = parseNumber(0, end, 16);
				this.state = (this.left == 0) ? State.TRAILERS : State.CHUNK_DATA;
			}
			case CHUNK_END -> this.state = State.CHUNK_SIZE;
			case TRAILERS -> {
				if (this.lineLength == 0) {
					this.state = State.DONE;
				}
			}
			default -> throw new IllegalStateException("no line expected in " + this.state);
		}
		this.lineLength = 0;
	}

	private void startBody() {
		if (this.closeAsked) {
			this.keepAlive = false;
		}
		if (this.status / 100 == 1 && this.status != 101) {
			// An interim answer: the final one follows on the same connection.
			int head = this.head ? 1 : 0;
			reset();
			this.head = head == 1;
			this.anyByte = true;
			return;
		}
		if (this.head) {
			this.state = State.DONE;
		}
		else if (this.chunked) {
			this.state = State.CHUNK_SIZE;
		}
		else if (this.contentLength >= 0) {
			this.left = this.contentLength;
			this.state = (this.left == 0) ? State.DONE : State.BODY;
		}
		else if (this.status == 204 || this.status == 304 || this.status == 101) {
			this.state = State.DONE;
		}
		else {
			this.state = State.UNTIL_CLOSE;
		}
	}

	/**
	 * Appends bytes up to the next LF to {@link #line}; true when the line is complete
	 * (its CR, LF dropped).
	 */
	private boolean readLine(ByteBuffer bytes) throws IOException {
		while (bytes.hasRemaining()) {
			byte b = bytes.get();
			if (b == '\n') {
				if (this.lineLength > 0 && this.line[this.lineLength - 1] == '\r') {
					this.lineLength--;
				}
				return true;
			}
			if (this.lineLength == this.line.length) {
				if (this.lineLength >= MAX_LINE) {
					throw new IOException("an HTTP header line longer than " + MAX_LINE + " bytes");
				}
				this.line = Arrays.copyOf(this.line, this.lineLength * 2);
			}
			this.line[this.lineLength++] = b;
		}
		return false;
	}

	/**
	 * Skips {@link #left} bytes of body, keeping the start of a failed answer's; true
	 * when all are skipped.
	 */
	private boolean skip(ByteBuffer bytes) {
		int take = (int) Math.min(this.left, bytes.remaining());
		if (this.kept != null && this.kept.length() < FAILURE_BODY_KEPT) {
			int keep = Math.min(take, FAILURE_BODY_KEPT - this.kept.length());
			byte[] piece = new byte[keep];
			bytes.get(bytes.position(), piece);
			this.kept.append(new String(piece, StandardCharsets.ISO_8859_1));
		}
		bytes.position(bytes.position() + take);
		this.left -= take;
		return this.left == 0;
	}

	private int parseStatus() throws IOException {
		if (this.lineLength < 12 || !startsWith(HTTP) || this.line[8] != ' ') {
			throw new IOException("not an HTTP answer: '" + text(0, Math.min(this.lineLength, 80)) + "'");
		}
		int code = (int) parseNumber(9, 12, 10);
		if (code < 100) {
			throw new IOException("not an HTTP status line: '" + text(0, this.lineLength) + "'");
		}
		return code;
	}

	private String value(int from) {
		return text(from, this.lineLength).trim();
	}

	private String text(int from, int to) {
		return new String(this.line, from, Math.max(0, to - from), StandardCharsets.ISO_8859_1);
	}

	private boolean startsWith(byte[] prefix) {
		return this.lineLength >= prefix.length && Arrays.equals(this.line, 0, prefix.length, prefix, 0, prefix.length);
	}

	/** {@code prefix} is lower-case. */
	private boolean startsWithIgnoreCase(byte[] prefix) {
		if (this.lineLength < prefix.length) {
			return false;
		}
		for (int i = 0; i < prefix.length; i++) {
			int b = this.line[i];
			if (b >= 'A' && b <= 'Z') {
				b += 'a' - 'A';
			}
			if (b != prefix[i]) {
				return false;
			}
		}
		return true;
	}

	/** The number in {@code line[from, to)}, blanks around it skipped. */
	private long parseNumber(int from, int to, int radix) throws IOException {
		int start = from;
		int end = to;
		while (start < end && (this.line[start] == ' ' || this.line[start] == '\t')) {
			start++;
		}
		while (end > start && (this.line[end - 1] == ' ' || this.line[end - 1] == '\t')) {
			end--;
		}
		if (start == end) {
			throw new IOException("a number was expected in an HTTP answer: '" + text(0, this.lineLength) + "'");
		}
		long value = 0;
		for (int i = start; i < end; i++) {
			int digit = Character.digit(this.line[i], radix);
			if (digit < 0 || value > (Long.MAX_VALUE - digit) / radix) {
				throw new IOException("not a number in an HTTP answer: '" + text(start, end) + "'");
			}
			value = value * radix + digit;
		}
		return value;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
