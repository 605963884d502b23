package dev.bottleneckkit.lab.probe;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The in-flight probe exists in every role: a scenario can read it on the caller and the
 * downstream.
 */
@Configuration(proxyBeanMethods = false)
class ProbeConfiguration {

	@Bean
	InFlightTracker inFlightTracker() {
		return new InFlightTracker();
	}

	@Bean
	FilterRegistrationBean<InFlightFilter> inFlightFilter(InFlightTracker tracker) {
		FilterRegistrationBean<InFlightFilter> registration = new FilterRegistrationBean<>(new InFlightFilter(tracker));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
