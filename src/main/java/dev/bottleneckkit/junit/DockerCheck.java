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
			super("No Docker engine answers: bottleneck-kit scenarios run in containers. Start Docker (on a bare "
					+ "Debian machine: bash .ci/docker-engine.sh start) or point DOCKER_HOST at one, then run again. "
					+ "The fast tests need no Docker: ./mvnw test");
		}

		@Override
		public synchronized Throwable fillInStackTrace() {
			return this;
		}

	}

}
