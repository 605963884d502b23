package com.example.guards;

import dev.bottleneckkit.containers.ServiceContainer;
import dev.bottleneckkit.junit.Scenario;
import dev.bottleneckkit.junit.ScenarioReport;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Sweep;
import dev.bottleneckkit.sweep.SweepResult;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

import static dev.bottleneckkit.assertions.BottleneckAssertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/** A team's service on Jetty (Spring Boot 4.1, platform threads): its worker pool caps the slow route. */
@Scenario(id = "T3", title = "A stock service on Jetty: its worker pool")
class ReportsServiceCapsIT {

	@Container
	static final ServiceContainer reports = new ServiceContainer(System.getenv().getOrDefault("REPORTS_IMAGE", "example/reports:1.0.0"))
		.withSpringProperty("server.jetty.threads.max", 8);

	@Test
	void theReportRouteIsCappedByJettysWorkerPool(ScenarioReport report) {
		SweepResult sweep = Sweep.of(reports, "/report").named("reports /report").upToUsers(32).run();

		report.record("sweep: /report (300 ms on a Jetty worker)", sweep);
		assertThat(sweep).isCappedBy(Resource.JETTY_THREADS).hasCeilingNearItsModel(withPercentage(15));
	}

}
