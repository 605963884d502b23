package dev.bottleneckkit.kit.junit;

import dev.bottleneckkit.kit.internal.DockerCheck;
import dev.bottleneckkit.kit.internal.Leftovers;
import dev.bottleneckkit.kit.report.ReportWriter;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** The machinery behind {@link Scenario}. */
class ScenarioExtension implements BeforeAllCallback, AfterTestExecutionCallback, AfterAllCallback, ParameterResolver {

	@Override
	public void beforeAll(ExtensionContext context) {
		DockerCheck.requireDocker();
		Leftovers.reapOnce();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
		return parameter.getParameter().getType() == ScenarioReport.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
		Scenario scenario = extension.getRequiredTestClass().getAnnotation(Scenario.class);
		return ScenarioReport.forTest(scenario.id(), scenario.title(), extension.getDisplayName(),
				extension.getUniqueId());
	}

	@Override
	public void afterTestExecution(ExtensionContext context) {
		ScenarioReport.settle(context.getUniqueId(), context.getExecutionException().orElse(null));
	}

	@Override
	public void afterAll(ExtensionContext context) {
		ReportWriter.writeAll(ScenarioReport.entries());
	}

}
