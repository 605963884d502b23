package dev.bottleneckkit.lab.caller;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The caller's outbound client: the {@link RestClient.Builder} Spring Boot
 * auto-configures, on Apache HttpClient 5, built exactly as Boot builds it. The pool is
 * touched only when a size knob is set, so the default case is the regression users ship:
 * 5 connections per route.
 */
@Configuration(proxyBeanMethods = false)
@Profile("caller")
class CallerHttpClientConfiguration {

	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> poolSizeCustomizer(
			CallerProperties properties) {
		CallerProperties.Pool pool = properties.pool();
		return (builder) -> builder.withConnectionManagerCustomizer((connectionManager) -> {
			if (pool.maxPerRoute() != null) {
				connectionManager.setMaxConnPerRoute(pool.maxPerRoute());
			}
			if (pool.maxTotal() != null) {
				connectionManager.setMaxConnTotal(pool.maxTotal());
			}
		});
	}

	/**
	 * The bulkhead around downstream calls, when
	 * {@code lab.caller.bulkhead.max-concurrent-calls} is set.
	 */
	@Bean
	@ConditionalOnProperty("lab.caller.bulkhead.max-concurrent-calls")
	Bulkhead downstreamBulkhead(CallerProperties properties) {
		return Bulkhead.of("downstream",
				BulkheadConfig.custom()
					.maxConcurrentCalls(properties.bulkhead().maxConcurrentCalls())
					.maxWaitDuration(properties.bulkhead().maxWait())
					.build());
	}

	/**
	 * The client to the downstream, on the request factory Spring Boot built (one pool,
	 * the one whose gauges
	 * {@code httpcomponents.httpclient.pool.*{httpclient=downstream}} report).
	 */
	@Bean
	RestClient downstreamClient(RestClient.Builder builder, ClientHttpRequestFactory requestFactory,
			CallerProperties properties, MeterRegistry meters) {
		HttpClientPools.of(requestFactory)
			.ifPresent(
					(pool) -> new PoolingHttpClientConnectionManagerMetricsBinder(pool, "downstream").bindTo(meters));
		return builder.requestFactory(requestFactory).baseUrl(properties.downstreamUrl().toString()).build();
	}

}
