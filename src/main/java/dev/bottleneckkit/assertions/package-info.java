/**
 * AssertJ assertions whose failure messages explain the cap:
 * {@code BottleneckAssertions.assertThat(result).hasThroughputNear(ceiling, 0.15)}.
 */
package dev.bottleneckkit.assertions;
