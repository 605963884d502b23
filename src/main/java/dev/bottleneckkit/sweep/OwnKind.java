package dev.bottleneckkit.sweep;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;

/**
 * A resource of the team's own, declared by the test ({@link Resource#own(String)}):
 * weighed first, the team knowing its service best. Its knob is the test's own.
 */
final class OwnKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.OWN;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(OwnResources::declared);
	}

}
