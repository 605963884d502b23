package dev.bottleneckkit.sweep.internal.read;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket reader's count, on lines as {@code /proc/net/tcp} and {@code tcp6} give them
 * in a service's network namespace: outbound established connections by destination,
 * those to the service's own listening port left out.
 */
class SocketCounterTest {

	@Test
	void countsEstablishedOutboundConnectionsByDestination() {
		List<String> lines = List.of(
				"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
				// listening on 8080
				"   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000 10001 0 1001 1",
				// a client of the service: inbound on 8080
				"   1: 050012AC:1F90 010012AC:C350 01 00000000:00000000 00:00000000 00000000 10001 0 1002 1",
				// two to the pricing stand-in at 172.18.0.6:8080, one to MySQL at
				// 172.18.0.3:3306
				"   2: 050012AC:9C40 060012AC:1F90 01 00000000:00000000 00:00000000 00000000 10001 0 1003 1",
				"   3: 050012AC:9C41 060012AC:1F90 01 00000000:00000000 00:00000000 00000000 10001 0 1004 1",
				"   4: 050012AC:9C42 030012AC:0CEA 01 00000000:00000000 00:00000000 00000000 10001 0 1005 1",
				// one closing (TIME_WAIT) is not counted
				"   5: 050012AC:9C43 060012AC:1F90 06 00000000:00000000 00:00000000 00000000 10001 0 0 1",
				"  sl  local_address                         remote_address                        st tx_queue",
				// IPv4-mapped IPv6, to the pricing stand-in
				"   0: 0000000000000000FFFF0000050012AC:9C44 0000000000000000FFFF0000060012AC:1F90 01 00000000:00000000"
						+ " 00:00000000 00000000 10001 0 1006 1");

		assertThat(SocketCounter.count(lines)).containsExactly(java.util.Map.entry("172.18.0.3:3306", 1),
				java.util.Map.entry("172.18.0.6:8080", 3));
	}

}
