package dev.bottleneckkit.lab.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.reflect.Method;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Gauges the kit's {@code ServiceGauges} probe reads beside Spring Boot's own:
 * {@code lab.requests.in-flight} (work requests being served) and, on JDK 24+, the
 * virtual-thread scheduler's gauges under the names and tags Micrometer's
 * {@code VirtualThreadMetrics} (micrometer-java21, 1.15+) gives them on any Boot service:
 * {@code jvm.threads.virtual.live{scheduling.status=mounted|queued}} and
 * {@code jvm.threads.virtual.parallelism} (from
 * {@code jdk.management.VirtualThreadSchedulerMXBean}; JDK 21 has no count of virtual
 * threads, so these are absent there). The lab binds them itself only to keep JFR's
 * pinned-event stream of that binder out of the pinning scenarios.
 */
@Configuration(proxyBeanMethods = false)
class LabMetricsConfiguration {

	private static final String SCHEDULER_MXBEAN = "jdk.management.VirtualThreadSchedulerMXBean";

	@Bean
	MeterBinder labGauges(InFlightTracker tracker) {
		return (registry) -> {
			Gauge.builder("lab.requests.in-flight", tracker, (t) -> t.snapshot().current())
				.description("work requests being served")
				.register(registry);
			bindVirtualThreadScheduler(registry);
		};
	}

	private static void bindVirtualThreadScheduler(MeterRegistry registry) {
		try {
			@SuppressWarnings("unchecked")
			Class<? extends PlatformManagedObject> type = (Class<? extends PlatformManagedObject>) Class
				.forName(SCHEDULER_MXBEAN);
			PlatformManagedObject scheduler = ManagementFactory.getPlatformMXBean(type);
			register(registry, "jvm.threads.virtual.live", "mounted", scheduler,
					type.getMethod("getMountedVirtualThreadCount"));
			register(registry, "jvm.threads.virtual.live", "queued", scheduler,
					type.getMethod("getQueuedVirtualThreadCount"));
			register(registry, "jvm.threads.virtual.parallelism", null, scheduler, type.getMethod("getParallelism"));
		}
		catch (ReflectiveOperationException | IllegalArgumentException ex) {
			// JDK 21-23: no scheduler MXBean, so no virtual-thread gauges.
		}
	}

	private static void register(MeterRegistry registry, String name, String status, Object scheduler, Method getter) {
		ToDoubleFunction<Object> read = (target) -> {
			try {
				return ((Number) getter.invoke(target)).doubleValue();
			}
			catch (ReflectiveOperationException ex) {
				return Double.NaN;
			}
		};
		Gauge.Builder<Object> gauge = Gauge.builder(name, scheduler, read);
		if (status != null) {
			gauge.tag("scheduling.status", status);
		}
		gauge.register(registry);
	}

}
