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

import dev.bottleneckkit.containers.ServiceContainer;

/**
 * Whether A and B taken in short turns meet the same machine, for
 * {@code bench/relay-probe.sh}: a benchmark that prints figures, not a test. Two images
 * start once; a closed loop of users then sends every request to the side whose turn it
 * is, the turns a fixed length and A's and B's in alternation. A turn begins with the
 * other side's last answers (every user has one request in flight when the turn changes);
 * once the last of them is in, every user is on this turn's side, and its answers from
 * then to the turn's end over that time are its rate at full load. A block's ratio is B's
 * rate over A's, each over all its turns; the answers each side had in its own turns,
 * whose ratio the drain bends (each turn loses about one answer a user, which moves a
 * short turn's ratio away from 1), are kept beside it. Blocks of each turn length are
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
					"pair\tblock\tturn_ms\tfirst\ta_answers\tb_answers\tratio\tturns_each\tbase\thead\ta_full\ta_seconds"
							+ "\tb_full\tb_seconds\trate_ratio" + System.lineSeparator(),
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
					Sides sides = relay(client, a, b, users, turn, block, baseFirst);
					String row = String.join("\t", pair, Integer.toString(n), Integer.toString(turn),
							baseFirst ? "A" : "B", Long.toString(sides.a().own()), Long.toString(sides.b().own()),
							number((double) sides.b().own() / sides.a().own()), Integer.toString(sides.turnsEach()),
							baseImage, headImage, Long.toString(sides.a().full()), number(sides.a().seconds()),
							Long.toString(sides.b().full()), number(sides.b().seconds()),
							number(sides.b().rate() / sides.a().rate()));
					Files.writeString(results, row + System.lineSeparator(), StandardCharsets.UTF_8,
							StandardOpenOption.APPEND);
					System.out.println("[relay] " + row.replace('\t', ' '));
				}
			}
		}
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%.4f", value);
	}

	/**
	 * {@code users} in a closed loop for {@code length}, each request to A in A's turns
	 * and to B in B's, turns of {@code turnMillis} beginning with A's where
	 * {@code baseFirst}, whole turns only.
	 */
	private static Sides relay(HttpClient client, URI a, URI b, int users, int turnMillis, Duration length,
			boolean baseFirst) throws InterruptedException {
		long turnNanos = turnMillis * 1_000_000L;
		int turns = (int) (length.toNanos() / turnNanos);
		turns -= turns % 2;
		long began = System.nanoTime();
		long end = began + turns * turnNanos;
		List<List<long[]>> answered = new ArrayList<>();
		List<Thread> threads = new ArrayList<>();
		for (int u = 0; u < users; u++) {
			List<long[]> mine = new ArrayList<>();
			answered.add(mine);
			threads.add(Thread.ofPlatform().name("relay-" + u).start(() -> {
				while (true) {
					long now = System.nanoTime();
					if (now >= end) {
						return;
					}
					boolean toA = (((now - began) / turnNanos) % 2 == 0) == baseFirst;
					try {
						HttpResponse<Void> answer = client.send(HttpRequest.newBuilder(toA ? a : b).GET().build(),
								HttpResponse.BodyHandlers.discarding());
						if (answer.statusCode() == 200) {
							mine.add(new long[] { System.nanoTime() - began, toA ? 0 : 1 });
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
		long[] own = new long[2];
		long[] full = new long[2];
		long[] fullNanos = new long[2];
		for (int t = 0; t < turns; t++) {
			int side = ((t % 2 == 0) == baseFirst) ? 0 : 1;
			long from = t * turnNanos;
			long to = from + turnNanos;
			long drained = from;
			List<Long> ownTimes = new ArrayList<>();
			for (List<long[]> mine : answered) {
				for (long[] answer : mine) {
					if (answer[0] >= from && answer[0] < to) {
						if (answer[1] == side) {
							ownTimes.add(answer[0]);
						}
						else {
							drained = Math.max(drained, answer[0]);
						}
					}
				}
			}
			long last = drained;
			own[side] += ownTimes.size();
			full[side] += ownTimes.stream().filter((time) -> time > last).count();
			fullNanos[side] += to - drained;
		}
		return new Sides(new Side(own[0], full[0], fullNanos[0] / 1e9), new Side(own[1], full[1], fullNanos[1] / 1e9),
				turns / 2);
	}

	/** What A and B answered in a block. */
	private record Sides(Side a, Side b, int turnsEach) {
	}

	/**
	 * A side's answers in its own turns, those once the other side's last answer was in,
	 * and the seconds from then to its turns' ends.
	 */
	private record Side(long own, long full, double seconds) {

		double rate() {
			return this.full / this.seconds;
		}

	}

}
