package dev.bottleneckkit.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.bottleneckkit.containers.ServiceContainer;

/**
 * Whether A and B taken in short turns meet the same machine, for
 * {@code bench/relay-probe.sh}: a benchmark that prints figures, not a test. Two images
 * start once; a closed loop of users then sends every request to the side whose turn it
 * is, the turns a fixed length and A's and B's in alternation, and a block's ratio is B's
 * answers over A's, each counted in its own turns (the other side's last answers, which
 * land in the first moments of a turn, are not counted). Blocks of each turn length are
 * measured in a shuffled order, so that every length meets the same hour; the spread of a
 * length's block ratios is what a guard's blocks would spread at it.
 * <p>
 * Arguments: base image, head image, route, users, blocks of each length, a block's
 * seconds, the results file, then the turn lengths in milliseconds.
 */
public final class RelayProbe {

	private RelayProbe() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		String baseImage = args[0];
		String headImage = args[1];
		String route = args[2];
		int users = Integer.parseInt(args[3]);
		int blocks = Integer.parseInt(args[4]);
		Duration block = Duration.ofSeconds(Long.parseLong(args[5]));
		Path results = Path.of(args[6]);
		List<Integer> turns = new ArrayList<>();
		for (int i = 7; i < args.length; i++) {
			turns.add(Integer.parseInt(args[i]));
		}
		if (!Files.exists(results)) {
			Files.writeString(results,
					"pair\tblock\tturn_ms\tfirst\ta_answers\tb_answers\tratio\tturns_each\tbase\thead"
							+ System.lineSeparator(),
					StandardCharsets.UTF_8);
		}
		String pair = Long.toString(System.currentTimeMillis() / 1000);
		try (ServiceContainer base = new ServiceContainer(baseImage).withName("relay-base");
				ServiceContainer head = new ServiceContainer(headImage).withName("relay-head");
				HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
			base.start();
			head.start();
			URI a = base.uri(route);
			URI b = head.uri(route);
			System.out.println("[relay] warming both: 60 s in 3 s turns");
			relay(client, a, b, users, 3000, Duration.ofSeconds(60), true);
			Random random = new Random(Long.parseLong(pair));
			for (int n = 1; n <= blocks; n++) {
				List<Integer> order = new ArrayList<>(turns);
				Collections.shuffle(order, random);
				for (int turn : order) {
					boolean baseFirst = random.nextBoolean();
					long[] answers = relay(client, a, b, users, turn, block, baseFirst);
					String row = String.join("\t", pair, Integer.toString(n), Integer.toString(turn),
							baseFirst ? "A" : "B", Long.toString(answers[0]), Long.toString(answers[1]),
							String.format(Locale.ROOT, "%.4f", (double) answers[1] / answers[0]),
							Long.toString(answers[2]), baseImage, headImage);
					Files.writeString(results, row + System.lineSeparator(), StandardCharsets.UTF_8,
							StandardOpenOption.APPEND);
					System.out.println("[relay] " + row.replace('\t', ' '));
				}
			}
		}
	}

	/**
	 * {@code users} in a closed loop for {@code length}, each request to A in A's turns
	 * and to B in B's, turns of {@code turnMillis} beginning with A's where
	 * {@code baseFirst}; returns A's answers in A's turns, B's in B's, and the turns each
	 * side had, whole turns only.
	 */
	private static long[] relay(HttpClient client, URI a, URI b, int users, int turnMillis, Duration length,
			boolean baseFirst) throws InterruptedException {
		long turnNanos = turnMillis * 1_000_000L;
		int turns = (int) (length.toNanos() / turnNanos);
		turns -= turns % 2;
		AtomicLongArray counted = new AtomicLongArray(turns);
		long began = System.nanoTime();
		long end = began + turns * turnNanos;
		List<Thread> threads = new ArrayList<>();
		for (int u = 0; u < users; u++) {
			threads.add(Thread.ofPlatform().name("relay-" + u).start(() -> {
				while (true) {
					long now = System.nanoTime();
					if (now >= end) {
						return;
					}
					int turn = (int) ((now - began) / turnNanos);
					boolean toA = (turn % 2 == 0) == baseFirst;
					try {
						HttpResponse<Void> answer = client.send(HttpRequest.newBuilder(toA ? a : b).GET().build(),
								HttpResponse.BodyHandlers.discarding());
						long done = System.nanoTime();
						int doneTurn = (int) ((done - began) / turnNanos);
						if (answer.statusCode() == 200 && done < end && (doneTurn % 2 == 0) == (toA == baseFirst)) {
							counted.incrementAndGet(doneTurn);
						}
					}
					catch (IOException ex) {
						throw new IllegalStateException(ex);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
				}
			}));
		}
		for (Thread thread : threads) {
			thread.join();
		}
		long[] answers = new long[3];
		for (int t = 0; t < turns; t++) {
			answers[((t % 2 == 0) == baseFirst) ? 0 : 1] += counted.get(t);
		}
		answers[2] = turns / 2;
		return answers;
	}

}
