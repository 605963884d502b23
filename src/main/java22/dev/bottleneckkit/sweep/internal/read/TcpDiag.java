package dev.bottleneckkit.sweep.internal.read;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each established TCP connection of the network namespace it runs in, with the bytes it
 * has had acknowledged and received: the kernel's {@code tcp_info}, asked over a
 * {@code NETLINK_SOCK_DIAG} socket as {@code ss -ti} asks it. Compiled for Java 22 (the
 * foreign function API) and loaded by name only where the socket reader runs on it
 * ({@link SocketCounter}): a connection whose bytes moved during a step carried a
 * request in it; an idle keep-alive connection's did not.
 */
final class TcpDiag implements AutoCloseable {

	private static final int AF_NETLINK = 16;

	private static final int SOCK_DGRAM = 2;

	private static final int NETLINK_SOCK_DIAG = 4;

	private static final short SOCK_DIAG_BY_FAMILY = 20;

	private static final short NLM_F_REQUEST_DUMP = 0x1 | 0x300;

	private static final short NLMSG_ERROR = 2;

	private static final short NLMSG_DONE = 3;

	private static final int INET_DIAG_INFO = 2;

	private static final int TCP_ESTABLISHED = 1;

	/** The header of a netlink message, then the diag request or answer. */
	private static final int HEADER = 16;

	/** {@code struct inet_diag_msg}: family, state, timer, retransmits, the id, five words. */
	private static final int DIAG_MESSAGE = 72;

	/** {@code tcp_info}'s {@code tcpi_bytes_acked}, then {@code tcpi_bytes_received}. */
	private static final int BYTES_ACKED = 120;

	private static final int BYTES_RECEIVED = 128;

	private static final ValueLayout.OfShort NET_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED
		.withOrder(ByteOrder.BIG_ENDIAN);

	private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

	private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

	private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

	private final MethodHandle send;

	private final MethodHandle recv;

	private final MethodHandle close;

	private final int socket;

	private int sequence;

	TcpDiag() throws Throwable {
		Linker linker = Linker.nativeLinker();
		SymbolLookup libc = linker.defaultLookup();
		MethodHandle open = linker.downcallHandle(libc.find("socket").orElseThrow(), FunctionDescriptor
			.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
		FunctionDescriptor io = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
				ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT);
		this.send = linker.downcallHandle(libc.find("send").orElseThrow(), io);
		this.recv = linker.downcallHandle(libc.find("recv").orElseThrow(), io);
		this.close = linker.downcallHandle(libc.find("close").orElseThrow(),
				FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
		this.socket = (int) open.invokeExact(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG);
		if (this.socket < 0) {
			throw new IllegalStateException("the kernel refused a NETLINK_SOCK_DIAG socket");
		}
	}

	/**
	 * Every established TCP connection, {@code remote-ip:port local-port} → its bytes
	 * acknowledged and received.
	 */
	Map<String, long[]> read() throws Throwable {
		Map<String, long[]> connections = new TreeMap<>();
		dump((byte) 2, connections);
		dump((byte) 10, connections);
		return connections;
	}

	private void dump(byte family, Map<String, long[]> connections) throws Throwable {
		try (Arena arena = Arena.ofConfined()) {
			MemorySegment request = arena.allocate(HEADER + 56, 8);
			request.set(INT, 0, HEADER + 56);
			request.set(SHORT, 4, SOCK_DIAG_BY_FAMILY);
			request.set(SHORT, 6, NLM_F_REQUEST_DUMP);
			request.set(INT, 8, ++this.sequence);
			// struct inet_diag_req_v2: family, protocol, the extensions asked for, states.
			request.set(ValueLayout.JAVA_BYTE, HEADER, family);
			request.set(ValueLayout.JAVA_BYTE, HEADER + 1, (byte) 6);
			request.set(ValueLayout.JAVA_BYTE, HEADER + 2, (byte) (1 << (INET_DIAG_INFO - 1)));
			request.set(INT, HEADER + 4, 1 << TCP_ESTABLISHED);
			if ((long) this.send.invokeExact(this.socket, request, (long) (HEADER + 56), 0) < 0) {
				throw new IllegalStateException("the diag request was not sent");
			}
			MemorySegment answer = arena.allocate(1 << 16, 8);
			while (true) {
				long read = (long) this.recv.invokeExact(this.socket, answer, (long) (1 << 16), 0);
				if (read <= 0) {
					return;
				}
				for (long at = 0; at + HEADER <= read;) {
					int length = answer.get(INT, at);
					short type = answer.get(SHORT, at + 4);
					if (type == NLMSG_DONE || type == NLMSG_ERROR || length < HEADER) {
						return;
					}
					connection(answer, at + HEADER, at + length, family, connections);
					at += (length + 3) & ~3;
				}
			}
		}
	}

	/** One {@code inet_diag_msg} at {@code message}, its attributes up to {@code end}. */
	private static void connection(MemorySegment answer, long message, long end, byte family,
			Map<String, long[]> connections) {
		int localPort = Short.toUnsignedInt(answer.get(NET_SHORT, message + 4));
		int remotePort = Short.toUnsignedInt(answer.get(NET_SHORT, message + 6));
		byte[] remote = answer.asSlice(message + 24, 16).toArray(ValueLayout.JAVA_BYTE);
		String key = address(family, remote) + ":" + remotePort + " " + localPort;
		for (long attribute = message + DIAG_MESSAGE; attribute + 4 <= end;) {
			int length = Short.toUnsignedInt(answer.get(SHORT, attribute));
			int type = Short.toUnsignedInt(answer.get(SHORT, attribute + 2));
			if (length < 4) {
				return;
			}
			if (type == INET_DIAG_INFO && length - 4 >= BYTES_RECEIVED + 8) {
				connections.put(key, new long[] { answer.get(LONG, attribute + 4 + BYTES_ACKED),
						answer.get(LONG, attribute + 4 + BYTES_RECEIVED) });
			}
			attribute += (length + 3) & ~3;
		}
	}

	/** An IPv4 address, or an IPv6 one in its IPv4 form where it maps one, as {@link SocketCounter} writes them. */
	static String address(byte family, byte[] address) {
		boolean mapped = family == 10 && address[10] == (byte) 0xFF && address[11] == (byte) 0xFF
				&& java.util.stream.IntStream.range(0, 10).allMatch((i) -> address[i] == 0);
		if (family == 2 || mapped) {
			int from = (family == 2) ? 0 : 12;
			return Byte.toUnsignedInt(address[from]) + "." + Byte.toUnsignedInt(address[from + 1]) + "."
					+ Byte.toUnsignedInt(address[from + 2]) + "." + Byte.toUnsignedInt(address[from + 3]);
		}
		StringBuilder hex = new StringBuilder("[");
		// /proc/net/tcp6 writes four little-endian words: the same bytes, each word reversed.
		for (int word = 0; word < 4; word++) {
			for (int i = 3; i >= 0; i--) {
				hex.append(String.format("%02x", address[word * 4 + i]));
			}
		}
		return hex.append("]").toString();
	}

	@Override
	public void close() throws Exception {
		try {
			int closed = (int) this.close.invokeExact(this.socket);
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

}
