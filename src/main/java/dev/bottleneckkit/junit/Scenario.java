package dev.bottleneckkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

import dev.bottleneckkit.internal.RunHook;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.lifecycle.Startable;
import org.testcontainers.lifecycle.Startables;

/**
 * Marks a container scenario. Before any container starts it checks that Docker answers
 * (one clear line if not) and removes what a killed earlier run left behind; then
 * Testcontainers manages the {@code @Container} fields; each test can take a
 * {@link ScenarioReport} parameter to record its runs in
 * {@code target/bottleneck-report/}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag("scenario")
@ExtendWith(Scenario.Extension.class)
@Testcontainers
public @interface Scenario {

	/** Short id used in the report, e.g. "S1". */
	String id();

	/** What the scenario shows, in one sentence. */
	String title();

	/**
	 * The machinery behind {@link Scenario}, which registers it: not for use on its own.
	 * It checks Docker, reaps what a killed run left, starts the class's containers
	 * together, resolves {@link ScenarioReport} parameters and writes the report.
	 */
	final class Extension
			implements BeforeAllCallback, AfterTestExecutionCallback, AfterAllCallback, ParameterResolver {

		private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(Extension.class);

		/**
		 * The system property that asks for the suite's schedule and budget where JUnit
		 * does not run classes at once: {@code -Dbottleneck.schedule=shared}.
		 */
		static final String SCHEDULE = "bottleneck.schedule";

		/** {@link #SCHEDULE}'s value that asks for it. */
		static final String SHARED = "shared";

		@Override
		public void beforeAll(ExtensionContext context) {
			if (classesRunAtOnce(context)) {
				SuiteHook.install("classes run at once");
			}
			else if (SHARED.equals(System.getProperty(SCHEDULE))) {
				SuiteHook.install("-D" + SCHEDULE + "=" + SHARED);
			}
			SuiteHook.owner(outermost(context.getRequiredTestClass()).getSimpleName());
			if (context.getRequiredTestClass().getEnclosingClass() == null) {
				context.getStore(NAMESPACE).put(Began.class, new Began(System.nanoTime()));
			}
			DockerCheck.requireDocker();
			Leftovers.reapOnce();
			// Stored before @Testcontainers stores its containers, so JUnit closes it
			// after they have stopped (a store closes its values in reverse order): a
			// network cannot be removed while containers use it.
			context.getStore(NAMESPACE).put(Networks.class, new Networks(context.getRequiredTestClass()));
			try (RunHook.Span starting = SuiteHook.classStarts()) {
				startContainersTogether(context.getRequiredTestClass());
			}
		}

		/**
		 * Whether JUnit runs this run's test classes at once: then container starts and
		 * loads take turns ({@code Phases}), so that a start never bends another class's
		 * measurement.
		 */
		private static boolean classesRunAtOnce(ExtensionContext context) {
			return context.getConfigurationParameter("junit.jupiter.execution.parallel.enabled")
				.map(Boolean::parseBoolean)
				.orElse(false)
					&& context.getConfigurationParameter("junit.jupiter.execution.parallel.mode.classes.default")
						.map("concurrent"::equalsIgnoreCase)
						.orElse(false);
		}

		private static Class<?> outermost(Class<?> testClass) {
			Class<?> outer = testClass;
			while (outer.getEnclosingClass() != null) {
				outer = outer.getEnclosingClass();
			}
			return outer;
		}

		/** When the class began, for its wall time in the budget. */
		record Began(long nanos) {
		}

		/**
		 * Starts the class's static {@code @Container} fields at once rather than one
		 * after another, as Testcontainers would (it then finds them running, and stops
		 * them after the class as usual): a downstream, a database and a proxy start in
		 * the time of the slowest, which the run's budget counts once.
		 */
		private static void startContainersTogether(Class<?> testClass) {
			List<Startable> containers = new ArrayList<>();
			for (Field field : testClass.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers()) && field.isAnnotationPresent(Container.class)
						&& Startable.class.isAssignableFrom(field.getType())) {
					try {
						field.setAccessible(true);
						Startable container = (Startable) field.get(null);
						if (container != null) {
							containers.add(container);
						}
					}
					catch (IllegalAccessException ex) {
						throw new IllegalStateException("cannot read @Container field " + field, ex);
					}
				}
			}
			if (!containers.isEmpty()) {
				try {
					Startables.deepStart(containers).join();
				}
				catch (CompletionException ex) {
					throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
				}
			}
		}

		@Override
		public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
			return parameter.getParameter().getType() == ScenarioReport.class;
		}

		@Override
		public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
			Scenario scenario = scenarioOf(extension.getRequiredTestClass());
			return ScenarioReport.forTest(scenario.id(), scenario.title(), extension.getDisplayName(),
					extension.getUniqueId());
		}

		/**
		 * The {@code @Scenario} of a test class, or of the class a {@code @Nested} one
		 * sits in.
		 */
		private static Scenario scenarioOf(Class<?> testClass) {
			for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
				Scenario scenario = type.getAnnotation(Scenario.class);
				if (scenario != null) {
					return scenario;
				}
			}
			throw new IllegalStateException(testClass.getName() + " is not in a @Scenario class");
		}

		@Override
		public void afterTestExecution(ExtensionContext context) {
			ScenarioReport.settle(context.getUniqueId(), context.getExecutionException().orElse(null));
		}

		@Override
		public void afterAll(ExtensionContext context) {
			Began began = context.getStore(NAMESPACE).get(Began.class, Began.class);
			if (began != null && context.getRequiredTestClass().getEnclosingClass() == null) {
				SuiteHook.wall(context.getRequiredTestClass().getSimpleName(), System.nanoTime() - began.nanos());
			}
			ReportWriter.writeAll(ScenarioReport.entries());
		}

		/**
		 * Closes the test class's static {@link Network} fields; a rerun of the class
		 * then gets them afresh.
		 */
		record Networks(Class<?> testClass) implements AutoCloseable {

			@Override
			public void close() throws IllegalAccessException {
				for (Field field : this.testClass.getDeclaredFields()) {
					if (Modifier.isStatic(field.getModifiers()) && Network.class.isAssignableFrom(field.getType())) {
						field.setAccessible(true);
						Network network = (Network) field.get(null);
						if (network != null) {
							network.close();
						}
					}
				}
			}

		}

	}

}
