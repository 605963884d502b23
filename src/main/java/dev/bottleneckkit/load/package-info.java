/**
 * Where load is made: {@link dev.bottleneckkit.load.ClosedLoopLoad} (users in a closed
 * loop), {@link dev.bottleneckkit.load.OpenLoopLoad} (a constant arrival rate), and what
 * they measured, {@link dev.bottleneckkit.load.LoadResult}.
 */
package dev.bottleneckkit.load;
