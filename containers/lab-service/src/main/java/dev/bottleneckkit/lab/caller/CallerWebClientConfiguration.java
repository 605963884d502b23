package dev.bottleneckkit.lab.caller;

import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The caller's WebClient route: Reactor Netty with its own {@link ConnectionProvider},
 * sized by {@code lab.caller.webclient.*}, with pool metrics on
 * ({@code reactor.netty.connection.provider.*}).
 */
@Configuration(proxyBeanMethods = false)
@Profile("caller")
class CallerWebClientConfiguration {

	@Bean(destroyMethod = "dispose")
	ConnectionProvider downstreamConnectionProvider(CallerProperties properties) {
		CallerProperties.WebClientPool knobs = properties.webclient();
		ConnectionProvider.Builder pool = ConnectionProvider.builder("downstream").metrics(true);
		if (knobs.maxConnections() != null) {
			pool.maxConnections(knobs.maxConnections());
		}
		if (knobs.pendingAcquireMaxCount() != null) {
			pool.pendingAcquireMaxCount(knobs.pendingAcquireMaxCount());
		}
		if (knobs.pendingAcquireTimeout() != null) {
			pool.pendingAcquireTimeout(knobs.pendingAcquireTimeout());
		}
		return pool.build();
	}

	@Bean
	WebClient downstreamWebClient(ConnectionProvider downstreamConnectionProvider, CallerProperties properties) {
		return WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(HttpClient.create(downstreamConnectionProvider)))
			.baseUrl(properties.downstreamUrl().toString())
			.build();
	}

}
