package dev.bottleneckkit.lab.probe;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/** Feeds the {@link InFlightTracker} from the routes that do work; probes and Actuator are not counted. */
class InFlightFilter extends OncePerRequestFilter {

	private final InFlightTracker tracker;

	InFlightFilter(InFlightTracker tracker) {
		this.tracker = tracker;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String path = request.getRequestURI();
		return path.startsWith("/probe") || path.startsWith("/actuator");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		this.tracker.enter();
		try {
			chain.doFilter(request, response);
		}
		finally {
			this.tracker.exit();
		}
	}

}
