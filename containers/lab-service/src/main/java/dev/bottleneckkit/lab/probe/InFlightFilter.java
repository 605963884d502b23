package dev.bottleneckkit.lab.probe;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Feeds the {@link InFlightTracker} from the downstream's work routes ({@code /work/**})
 * only: probes, Actuator and the caller's own routes are not counted, so one app playing
 * both roles still reports what the downstream sees.
 */
class InFlightFilter extends OncePerRequestFilter {

	private final InFlightTracker tracker;

	InFlightFilter(InFlightTracker tracker) {
		this.tracker = tracker;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !request.getRequestURI().startsWith("/work/");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long entered = System.nanoTime();
		this.tracker.enter();
		try {
			chain.doFilter(request, response);
		}
		finally {
			this.tracker.exit(System.nanoTime() - entered);
		}
	}

}
