package dev.bottleneckkit.lab.caller;

import java.lang.reflect.Field;
import java.util.Optional;

import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Finds the connection pool inside the HttpClient 5 that Spring Boot built. Neither Boot
 * nor HttpClient hands it out (the client keeps it in a private field, and Boot's builder
 * customizers see only the pool's builder), yet its leased/pending gauges are the
 * evidence that the pool caps the caller. The lookup looks for a field holding a pool,
 * not for a field name, and gives up quietly if there is none.
 */
final class HttpClientPools {

	private HttpClientPools() {
	}

	static Optional<PoolingHttpClientConnectionManager> of(ClientHttpRequestFactory factory) {
		if (!(factory instanceof HttpComponentsClientHttpRequestFactory httpComponents)) {
			return Optional.empty();
		}
		Object client = httpComponents.getHttpClient();
		for (Class<?> type = client.getClass(); type != null; type = type.getSuperclass()) {
			for (Field field : type.getDeclaredFields()) {
				Optional<PoolingHttpClientConnectionManager> pool = field.getType().isPrimitive() ? Optional.empty()
						: read(field, client);
				if (pool.isPresent()) {
					return pool;
				}
			}
		}
		return Optional.empty();
	}

	private static Optional<PoolingHttpClientConnectionManager> read(Field field, Object client) {
		try {
			field.setAccessible(true);
			return (field.get(client) instanceof PoolingHttpClientConnectionManager pool) ? Optional.of(pool)
					: Optional.empty();
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return Optional.empty();
		}
	}

}
