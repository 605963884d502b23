package dev.bottleneckkit.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.bottleneckkit.load.ClosedLoopLoad;
import dev.bottleneckkit.sweep.internal.run.PairRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Javadoc and the README say a default is, the code's: the warm-up's longest, a
 * guard's budget and bound, a request's timeout, the users a sweep climbs to. A default
 * changed in one place fails here until the words follow.
 */
class DocumentedDefaultsTest {

	private static final Path SWEEP = Path.of("src/main/java/dev/bottleneckkit/sweep/Sweep.java");

	private static final Path README = Path.of("README.md");

	@Test
	void theWarmUpsLongestIsWhatTheJavadocAndTheReadmeSay() throws IOException {
		assertThat(minutes(said(SWEEP, "(\\d+) minutes unless told\\. It ends as soon as")))
			.as("Sweep.warmUpAtMost's Javadoc")
			.isEqualTo(WarmUp.DEFAULT_AT_MOST);
		assertThat(minutes(said(README, "at most (\\d+) minutes in all, `warmUpAtMost`"))).as("the README's sweep")
			.isEqualTo(WarmUp.DEFAULT_AT_MOST);
	}

	@Test
	void aGuardsBudgetAndBoundAreWhatTheJavadocAndTheReadmeSay() throws IOException {
		assertThat(minutes(said(SWEEP, "unresolved, never green\\. (\\d+) minutes unless told")))
			.as("Sweep.within's Javadoc")
			.isEqualTo(PairRun.Guard.DEFAULT.budget());
		assertThat(minutes(said(README, "for all routes; (\\d+) minutes unless told"))).as("the README's guard")
			.isEqualTo(PairRun.Guard.DEFAULT.budget());
		for (String percent : List.of(said(SWEEP, "(\\d+) % unless told \\(\\{@link ABComparison#DEFAULT_BOUND"),
				said(README, "tells apart; (\\d+) % unless told"))) {
			assertThat(Double.parseDouble(percent) / 100).isEqualTo(ABComparison.DEFAULT_BOUND);
		}
	}

	@Test
	void aRequestsTimeoutAndTheUsersASweepClimbsToAreTheCodes() throws IOException {
		assertThat(Duration.ofSeconds(Long.parseLong(said(SWEEP, "min; (\\d+) s unless told"))))
			.isEqualTo(ClosedLoopLoad.DEFAULT_REQUEST_TIMEOUT);
		assertThat(said(SWEEP, "\\(steps double from one\\); (\\{@value #DEFAULT_MAX_USERS\\}) unless told"))
			.as("Sweep.upToUsers's Javadoc names the constant the code starts from")
			.isNotEmpty();
	}

	private static String said(Path file, String regex) throws IOException {
		// A Javadoc's or a paragraph's line breaks read as spaces.
		String text = Files.readString(file).replaceAll("\\s*\\n\\s*(\\* )?", " ");
		Matcher matcher = Pattern.compile(regex).matcher(text);
		assertThat(matcher.find()).as("%s says /%s/", file, regex).isTrue();
		return matcher.group(1);
	}

	private static Duration minutes(String minutes) {
		return Duration.ofMinutes(Long.parseLong(minutes));
	}

}
