package dev.bottleneckkit.load;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

class ResponseParserTest {

	private final ResponseParser parser = new ResponseParser();

	@Test
	void readsALengthFramedAnswerInAnyPieces() throws IOException {
		String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}";
		for (int cut = 1; cut < answer.length(); cut++) {
			this.parser.reset();

			boolean first = this.parser.feed(bytes(answer.substring(0, cut)));
			boolean second = this.parser.feed(bytes(answer.substring(cut)));

			assertThat(first).as("complete after %d of %d bytes", cut, answer.length()).isFalse();
			assertThat(second).as("complete once the last byte arrived (cut at %d)", cut).isTrue();
			assertThat(this.parser.failure()).isNull();
			assertThat(this.parser.keepAlive()).isTrue();
		}
	}

	@Test
	void namesTheErrorAFailedAnswerGivesInItsChunkedBody() throws IOException {
		this.parser.reset();

		boolean done = this.parser.feed(bytes("HTTP/1.1 504 Gateway Timeout\r\ntransfer-encoding: chunked\r\n\r\n"
				+ "9\r\n{\"error\":\r\n10;ext=1\r\n\"read-timeout\"}\r\n0\r\nX-Trailer: 1\r\n\r\n"));

		assertThat(done).isTrue();
		assertThat(this.parser.failure()).isEqualTo("http-504 read-timeout");
	}

	@Test
	void anAnswerWithoutALengthEndsWhenTheConnectionCloses() throws IOException {
		this.parser.reset();

		boolean done = this.parser.feed(bytes("HTTP/1.0 404 Not Found\r\n\r\nno such route"));

		assertThat(done).as("the body runs to the close").isFalse();
		assertThat(this.parser.closed()).as("the close ends it").isTrue();
		assertThat(this.parser.failure()).isEqualTo("http-404");
		assertThat(this.parser.keepAlive()).isFalse();
	}

	@Test
	void connectionCloseAndHttp10AreNotKeptAlive() throws IOException {
		this.parser.reset();
		this.parser.feed(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"));
		assertThat(this.parser.keepAlive()).isFalse();

		this.parser.reset();
		this.parser.feed(bytes("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n"));
		assertThat(this.parser.keepAlive()).as("HTTP/1.0 asking to be kept alive").isTrue();
	}

	@Test
	void anAnswerCutShortIsNotComplete() throws IOException {
		this.parser.reset();

		this.parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"));

		assertThat(this.parser.closed()).as("a close inside a length-framed body cuts the answer short").isFalse();
		assertThat(this.parser.started()).isTrue();
	}

	@Test
	void somethingThatIsNotHttpIsRejected() {
		this.parser.reset();

		assertThatIOException().isThrownBy(() -> this.parser.feed(bytes("SSH-2.0-OpenSSH_9.2\r\n")))
			.withMessage("not an HTTP answer: 'SSH-2.0-OpenSSH_9.2'");
	}

	private static ByteBuffer bytes(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
	}

}
