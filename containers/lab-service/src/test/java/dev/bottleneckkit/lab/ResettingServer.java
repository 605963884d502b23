package dev.bottleneckkit.lab;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * A dependency that fails: it reads each HTTP request, waits, then resets the connection
 * (SO_LINGER 0), so the client sees "Connection reset" after {@code delay}. Runs until
 * the JVM exits.
 */
final class ResettingServer {

	private final ServerSocket socket;

	private ResettingServer(ServerSocket socket) {
		this.socket = socket;
	}

	static ResettingServer start(Duration delay) {
		try {
			ServerSocket socket = new ServerSocket(0);
			Thread.ofVirtual().name("resetting-server").start(() -> {
				while (!socket.isClosed()) {
					try {
						Socket connection = socket.accept();
						Thread.ofVirtual().start(() -> resetAfter(connection, delay));
					}
					catch (IOException closed) {
						return;
					}
				}
			});
			return new ResettingServer(socket);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot open a local port for the resetting server", ex);
		}
	}

	String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	private static void resetAfter(Socket connection, Duration delay) {
		try (connection) {
			InputStream in = connection.getInputStream();
			int matched = 0;
			byte[] end = "\r\n\r\n".getBytes();
			while (matched < end.length) {
				int b = in.read();
				if (b < 0) {
					return;
				}
				matched = (b == end[matched]) ? matched + 1 : (b == end[0] ? 1 : 0);
			}
			Thread.sleep(delay);
			connection.setSoLinger(true, 0);
		}
		catch (IOException | InterruptedException ex) {
			// the client went first: nothing to reset
		}
	}

}
