package dev.bottleneckkit.lab.requestlog;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * With {@code lab.request-log.appender} {@code sync} or {@code async}, every
 * {@code /work/**} request logs one line when it ends, and {@code GET /probe/request-log}
 * reads what was logged and what reached the sink.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression(RequestLogConfiguration.ENABLED)
class RequestLogConfiguration {

	static final String ENABLED = "'${lab.request-log.appender:none}'.toLowerCase() != 'none'";

	@Bean
	RequestLog requestLog(RequestLogProperties properties) {
		return new RequestLog(properties);
	}

	@Bean
	FilterRegistrationBean<RequestLogFilter> requestLogFilter(RequestLog log) {
		FilterRegistrationBean<RequestLogFilter> registration = new FilterRegistrationBean<>(new RequestLogFilter(log));
		registration.addUrlPatterns("/work/*");
		return registration;
	}

	/**
	 * Logs each request after it was served, on the request's own thread, as access logs
	 * do.
	 */
	static final class RequestLogFilter extends OncePerRequestFilter {

		private final RequestLog log;

		RequestLogFilter(RequestLog log) {
			this.log = log;
		}

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			long started = System.nanoTime();
			try {
				chain.doFilter(request, response);
			}
			finally {
				this.log.log(request.getMethod(), request.getRequestURI(), response.getStatus(),
						(System.nanoTime() - started) / 1_000_000);
			}
		}

	}

	@RestController
	@ConditionalOnExpression(ENABLED)
	static final class RequestLogProbe {

		private final RequestLog log;

		RequestLogProbe(RequestLog log) {
			this.log = log;
		}

		@GetMapping("/probe/request-log")
		RequestLog.Reading read() {
			return this.log.read();
		}

	}

}
