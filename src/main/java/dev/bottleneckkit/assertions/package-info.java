/**
 * AssertJ assertions whose failure messages explain the cap:
 * {@code BottleneckAssertions.assertThat(result).hasThroughputNear(ceiling, withPercentage(15))}.
 */
package dev.bottleneckkit.assertions;
