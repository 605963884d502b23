package dev.bottleneckkit.bench;

import java.io.IOException;
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
import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.load.LoadResult;
import dev.bottleneckkit.load.Request;

/**
 * Whether A and B taken in short turns meet the same machine, for
 * {@code bench/relay-probe.sh}: a benchmark that prints figures, not a test. Two images
 * start once; the kit's load in turns ({@link ClosedLoopLoad#runInTurns}) then sends
 * every user's next request to the side whose turn it is, the turns a fixed length and
 * A's and B's in alternation. A turn begins with the other side's last answers (every
 * user has one request in flight when the turn changes); once the last of them is in,
 * every user is on this turn's side, and what it answers from then to the turn's end over
 * that time is its rate at full load, counted two ways: whole answers, and its requests'
 * lives (the share of each one's life that falls there; the guard's figure). The answers
 * each side had in its own turns, whose ratio the drain bends (each turn loses about one
 * answer a user, which moves a short turn's ratio away from 1), are kept beside them.
 * Blocks of each turn length are measured in a shuffled order, so that every length meets
 * the same hour; the spread of a length's block ratios is what a guard's blocks would
 * spread at it.
 * <p>
 * Arguments: base image, head image, route, users, blocks of each length, a block's
 * seconds, the results file, then the turn lengths in milliseconds.
 */
public final class RelayProbe {

	private static final String HEADER = "pair\tblock\tturn_ms\tfirst\ta_answers\tb_answers\tratio\tturns_each\tbase"
			+ "\thead\ta_full\ta_seconds\tb_full\tb_seconds\trate_ratio\ta_lives\tb_lives\tlives_ratio";

	private RelayProbe() {
	}

	public static void main(String[] args) throws IOException {
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
		header(results);
		String pair = Long.toString(System.currentTimeMillis() / 1000);
		try (ServiceContainer base = new ServiceContainer(baseImage).withName("relay-base");
				ServiceContainer head = new ServiceContainer(headImage).withName("relay-head")) {
			base.start();
			head.start();
			List<Request> a = List.of(Request.get(base.uri(route)));
			List<Request> b = List.of(Request.get(head.uri(route)));
			System.out.println("[relay] warming both: 60 s in 3 s turns");
			relay(users, 3000, Duration.ofSeconds(60), true, a, b);
			Random random = new Random(Long.parseLong(pair));
			for (int n = 1; n <= blocks; n++) {
				List<Integer> order = new ArrayList<>(turns);
				Collections.shuffle(order, random);
				for (int turn : order) {
					boolean baseFirst = random.nextBoolean();
					LoadResult.InTurns sides = relay(users, turn, block, baseFirst, a, b);
					LoadResult.InTurns.Side sa = sides.firstSide();
					LoadResult.InTurns.Side sb = sides.secondSide();
					String row = String.join("\t", pair, Integer.toString(n), Integer.toString(turn),
							baseFirst ? "A" : "B", Long.toString(sa.answers()), Long.toString(sb.answers()),
							number((double) sb.answers() / sa.answers()), Integer.toString(sides.turnsEach()),
							baseImage, headImage, Long.toString(sa.answeredAtFullLoad()),
							number(sa.fullLoad().toNanos() / 1e9), Long.toString(sb.answeredAtFullLoad()),
							number(sb.fullLoad().toNanos() / 1e9),
							number(sb.answeredRate().orElse(Double.NaN) / sa.answeredRate().orElse(Double.NaN)),
							number(sa.atFullLoad()), number(sb.atFullLoad()), number(sides.ratio().orElse(Double.NaN)));
					Files.writeString(results, row + System.lineSeparator(), StandardCharsets.UTF_8,
							StandardOpenOption.APPEND);
					System.out.println("[relay] " + row.replace('\t', ' '));
				}
			}
		}
	}

	/**
	 * A new results file's header, or an older one's with the columns this probe added
	 * since (its rows leave them empty).
	 */
	private static void header(Path results) throws IOException {
		if (!Files.exists(results)) {
			Files.writeString(results, HEADER + System.lineSeparator(), StandardCharsets.UTF_8);
			return;
		}
		List<String> lines = new ArrayList<>(Files.readAllLines(results, StandardCharsets.UTF_8));
		if (!lines.get(0).equals(HEADER)) {
			lines.set(0, HEADER);
			Files.write(results, lines, StandardCharsets.UTF_8);
		}
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%.4f", value);
	}

	/**
	 * {@code users} in a closed loop for {@code length} after a second's ramp, each
	 * request to A in A's turns and to B in B's, turns of {@code turnMillis} beginning
	 * with A's where {@code baseFirst}.
	 */
	private static LoadResult.InTurns relay(int users, int turnMillis, Duration length, boolean baseFirst,
			List<Request> a, List<Request> b) {
		return ClosedLoopLoad.users(users)
			.warmUp(Duration.ofSeconds(1))
			.forDuration(length)
			.named("relay")
			.quiet()
			.runInTurns(Duration.ofMillis(turnMillis), baseFirst, a, b);
	}

}
