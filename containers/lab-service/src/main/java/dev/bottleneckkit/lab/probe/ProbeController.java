package dev.bottleneckkit.lab.probe;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /probe/in-flight} reads current and peak in-flight requests; {@code DELETE}
 * starts a new window and returns the one that ended.
 */
@RestController
@RequestMapping("/probe/in-flight")
class ProbeController {

	private final InFlightTracker tracker;

	ProbeController(InFlightTracker tracker) {
		this.tracker = tracker;
	}

	@GetMapping
	InFlightTracker.Snapshot read() {
		return this.tracker.snapshot();
	}

	@DeleteMapping
	InFlightTracker.Snapshot reset() {
		return this.tracker.reset();
	}

}
