package dev.bottleneckkit.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.Network;

/**
 * The databases the kit started ({@code KitContainers.mysql}), so that a sweep finds the
 * one on its service's network without wiring, as it finds downstreams: where requests
 * wait in the database, its own lock tables say for what.
 */
public final class Databases {

	private static final List<JdbcDatabaseContainer<?>> STARTED = new CopyOnWriteArrayList<>();

	private Databases() {
	}

	/** Remembers {@code database}, a container the kit built. */
	public static void register(JdbcDatabaseContainer<?> database) {
		STARTED.add(database);
	}

	/** The running databases the kit built on {@code network}. */
	public static List<JdbcDatabaseContainer<?>> on(Network network) {
		return STARTED.stream()
			.filter((database) -> network != null && network.equals(database.getNetwork()))
			.filter((database) -> database.getContainerId() != null && database.isRunning())
			.toList();
	}

}
