package dev.bottleneckkit.sweep;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resources the analysis knows are one list: each {@link Resource} has one kind in
 * it, and the stages read their rules, bounds and knobs from it in its order.
 */
class ResourceKindsTest {

	@Test
	void everyResourceHasOneKind() {
		List<Resource> kinds = ResourceKinds.ALL.stream().map(ResourceKind::resource).toList();

		assertThat(kinds).containsExactlyInAnyOrderElementsOf(Arrays.asList(Resource.values()));
	}

	@Test
	void theTeamsOwnResourceIsAskedFirstAndTheCpuLast() {
		assertThat(ResourceKinds.ALL.get(0).resource()).isEqualTo(Resource.OWN);
		assertThat(ResourceKinds.ALL.get(ResourceKinds.ALL.size() - 1).resource()).isEqualTo(Resource.CPU);
		// A cap upstream of a client comes before the connections it lets through.
		assertThat(indexOf(Resource.BULKHEAD)).isLessThan(indexOf(Resource.CONNECTION_POOL));
		assertThat(indexOf(Resource.RATE_LIMITER)).isLessThan(indexOf(Resource.CONNECTION_POOL));
		assertThat(indexOf(Resource.EXECUTOR)).isLessThan(indexOf(Resource.CONNECTION_POOL));
	}

	@Test
	void onlyDemandsAreReadAgainOnAConfirmationsStep() {
		assertThat(ResourceKinds.ALL.stream().filter(ResourceKind::demanded).map(ResourceKind::resource))
			.containsExactlyInAnyOrder(Resource.CARRIER_THREADS, Resource.CPU, Resource.DOWNSTREAM);
	}

	private static int indexOf(Resource resource) {
		return ResourceKinds.ALL.indexOf(ResourceKinds.of(resource));
	}

}
