package dev.bottleneckkit.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw-socket HTTP/1.1 server on loopback that answers as a test script says, byte for
 * byte: for RFC 9112 corners the JDK's server will not produce (interim answers, a close
 * after reading a request, unsolicited bytes). It counts connections and the requests
 * that arrived, by their request line.
 */
final class RawServer implements AutoCloseable {

	/** What the server does with the {@code n}-th request (from 1) on a connection. */
	interface Script {

		/**
		 * Answers {@code request} (its request line) on {@code out}; false closes the
		 * connection after it.
		 */
		boolean answer(int n, String requestLine, OutputStream out) throws IOException;

	}

	private final ServerSocket server;

	private final AtomicInteger connections = new AtomicInteger();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	RawServer(Script script) throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread.ofVirtual().start(() -> {
			while (!this.server.isClosed()) {
				try {
					Socket socket = this.server.accept();
					this.connections.incrementAndGet();
					Thread.ofVirtual().start(() -> serve(socket, script));
				}
				catch (IOException ex) {
					return;
				}
			}
		});
	}

	private void serve(Socket socket, Script script) {
		try (socket) {
			InputStream in = socket.getInputStream();
			for (int n = 1;; n++) {
				String head = readHead(in);
				if (head == null) {
					return;
				}
				String requestLine = head.substring(0, head.indexOf("\r\n"));
				int length = contentLength(head);
				in.readNBytes(length);
				this.requests.add(requestLine);
				if (!script.answer(n, requestLine, socket.getOutputStream())) {
					return;
				}
			}
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			head.write(b);
			String text = head.toString(StandardCharsets.ISO_8859_1);
			if (text.endsWith("\r\n\r\n")) {
				return text;
			}
		}
		return null;
	}

	private static int contentLength(String head) {
		for (String line : head.split("\r\n")) {
			if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
				return Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		return 0;
	}

	/** Writes {@code text} as ISO-8859-1 bytes and flushes. */
	static void write(OutputStream out, String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getLocalPort() + path);
	}

	/** Connections accepted so far. */
	int connections() {
		return this.connections.get();
	}

	/** Request lines received so far, in order. */
	List<String> requests() {
		return List.copyOf(this.requests);
	}

	@Override
	public void close() throws IOException {
		this.server.close();
	}

}
