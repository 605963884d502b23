package dev.bottleneckkit.junit;

import org.testcontainers.DockerClientFactory;

/** Fails fast, in one line, when no Docker engine answers. */
final class DockerCheck {

	private DockerCheck() {
	}

	static void requireDocker() {
		if (!DockerClientFactory.instance().isDockerAvailable()) {
			throw new DockerUnavailableException();
		}
	}

	/** One actionable line; the stack trace would say nothing more. */
	static final class DockerUnavailableException extends RuntimeException {

		DockerUnavailableException() {
			super("No Docker engine answers: @Scenario tests run your service in containers (Testcontainers). Start"
					+ " Docker, or point DOCKER_HOST (or ~/.testcontainers.properties) at an engine, then run again.");
		}

		@Override
		public synchronized Throwable fillInStackTrace() {
			return this;
		}

	}

}
