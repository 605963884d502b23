/**
 * Where a probe reads a service: {@link dev.bottleneckkit.probe.ServiceGauges} (Actuator
 * gauges as a time series), {@link dev.bottleneckkit.probe.PinningProbe} (JFR
 * pinned-thread events) and {@link dev.bottleneckkit.probe.ThreadDumpProbe} (thread dumps
 * with virtual threads). Each is made with {@code on(container)}, or for the test's own
 * JVM or a URI, {@code inThisJvm(name)} / {@code at(uri)}.
 */
package dev.bottleneckkit.probe;
