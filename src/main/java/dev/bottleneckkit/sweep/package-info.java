/**
 * Finding a service's cap when it is not known: {@link dev.bottleneckkit.sweep.Sweep}
 * loads the service at rising concurrency, finds the knee where doubling the users stops
 * raising throughput, and {@link dev.bottleneckkit.sweep.Verdict} names the resource that
 * saturated, with the numbers that prove it.
 */
package dev.bottleneckkit.sweep;
