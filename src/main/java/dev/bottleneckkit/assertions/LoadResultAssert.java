package dev.bottleneckkit.assertions;

import dev.bottleneckkit.load.LoadResult;

/**
 * The kit's assertions on a {@link LoadResult}, from
 * {@code BottleneckAssertions.assertThat(loadResult)}; extend
 * {@link AbstractLoadResultAssert} to add assertions of your own.
 */
public class LoadResultAssert extends AbstractLoadResultAssert<LoadResultAssert> {

	public LoadResultAssert(LoadResult actual) {
		super(actual, LoadResultAssert.class);
	}

}
