package dev.bottleneckkit.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.bottleneckkit.sweep.Search;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The search for the smallest limit that reaches a throughput: the model's first limit,
 * the next after a miss, and the line that says what was found in how many starts.
 */
class SearchTest {

	@Test
	void theModelsFirstLimitIsTheCeilingAUnitRoundedUpToAStep() {
		// The stock service's /stock: Hikari 4 capped it at 15.8 rps, 3.95 rps a
		// connection.
		assertThat(Search.firstLimit(24, 15.8 / 4, 1)).isEqualTo(7);
		assertThat(Search.firstLimit(15.8, 15.8 / 4, 1)).as("the ceiling itself: the limit it has").isEqualTo(4);
		assertThat(Search.firstLimit(10, 15.8 / 4, 1)).as("below the ceiling: a smaller pool").isEqualTo(3);
		assertThat(Search.firstLimit(0.5, 15.8 / 4, 1)).as("never below one step").isEqualTo(1);
		// S9: 1 CPU capped the route at 14.2 rps; 20 rps needs 1.5 CPUs (1.41 rounded
		// up).
		assertThat(Search.firstLimit(20, 14.2, 0.1)).isCloseTo(1.5, within(1e-9));
	}

	@Test
	void aLimitThatFellShortIsRaisedByWhatItMissedAndByOneStepAtLeast() {
		assertThat(Search.nextLimit(7, 24, 20, 1)).as("7 × 24 / 20 = 8.4").isEqualTo(9);
		assertThat(Search.nextLimit(7, 24, 23.9, 1)).as("a hair short: one step more").isEqualTo(8);
		assertThat(Search.nextLimit(7, 24, 0, 1)).as("nothing answered: twice").isEqualTo(14);
	}

	@Test
	void theLineSaysWhatReachedTheTargetAndWhatOneStepLessWouldGive() {
		Search once = new Search(24, 15.8 / 4, 1, List.of(new Search.Try("Hikari 7", 7, 27.6, 27.1)), Optional.empty(),
				Duration.ofSeconds(20));

		assertThat(once.found()).map(Search.Try::knob).hasValue("Hikari 7");
		assertThat(once.line()).isEqualTo("reaches 24.0 rps with Hikari 7: 27.1 rps measured (predicted 27.6, 3.95"
				+ " rps a unit of the limit); a limit of 6 is predicted 23.7 rps; 1 start");

		Search twice = new Search(24, 15.8 / 4, 1,
				List.of(new Search.Try("Hikari 7", 7, 27.65, 23.0), new Search.Try("Hikari 8", 8, 31.6, 30.2)),
				Optional.empty(), Duration.ofSeconds(40));
		assertThat(twice.line()).endsWith("a unit of the limit); Hikari 7 measured 23.0 rps; 2 starts");

		Search missed = new Search(40, 15.8 / 4, 1,
				List.of(new Search.Try("Hikari 11", 11, 43.5, 31.0), new Search.Try("Hikari 15", 15, 59.3, 31.2)),
				Optional.empty(), Duration.ofSeconds(40));
		assertThat(missed.found()).isEmpty();
		assertThat(missed.line()).isEqualTo(
				"did not reach 40.0 rps in 2 starts: Hikari 11 31.0 rps, Hikari 15 31.2 rps — the cap moved elsewhere");

		assertThat(Search.unreachable(40, "the next cap, Tomcat threads at 25.8 rps, lies below it").line())
			.isEqualTo("no limit searched for 40.0 rps: the next cap, Tomcat threads at 25.8 rps, lies below it");
	}

}
