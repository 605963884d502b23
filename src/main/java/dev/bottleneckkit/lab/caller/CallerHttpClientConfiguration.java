package dev.bottleneckkit.lab.caller;

import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.client.RestClient;

/**
 * The caller's outbound client: the {@link RestClient.Builder} Spring Boot auto-configures, on Apache
 * HttpClient 5, built exactly as Boot builds it. The pool is touched only when a size knob is set, so the
 * default case is the regression users ship: 5 connections per route.
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

	@Bean
	RestClient downstreamClient(RestClient.Builder builder, CallerProperties properties) {
		return builder.baseUrl(properties.downstreamUrl().toString()).build();
	}

}
