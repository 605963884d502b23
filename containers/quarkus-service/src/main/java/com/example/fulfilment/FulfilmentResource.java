package com.example.fulfilment;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.agroal.api.AgroalDataSource;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A team's fulfilment routes, each on the thread Quarkus gives it: a parcel is booked in the database (a worker
 * thread, an Agroal connection); a rate is asked of the carrier (a worker thread, the REST client); a tracking
 * event is stamped on the event loop by code that blocks it; a label is printed on a virtual thread inside a
 * {@code synchronized} block; a pickup is booked with the carrier behind a bulkhead left at SmallRye Fault Tolerance's
 * defaults.
 */
@Path("/")
@Produces(MediaType.TEXT_PLAIN)
public class FulfilmentResource {

	@Inject
	AgroalDataSource database;

	@Inject
	@RestClient
	CarrierClient carrier;

	/** Books a parcel: one query of 100 ms on a pooled connection, on a worker thread. */
	@GET
	@Path("/parcels")
	public String parcel() throws SQLException {
		try (Connection connection = this.database.getConnection();
				Statement statement = connection.createStatement();
				ResultSet slept = statement.executeQuery("SELECT SLEEP(0.1)")) {
			slept.next();
			return "booked " + slept.getInt(1);
		}
	}

	/** Asks the carrier for a rate, on a worker thread that waits for the answer. */
	@GET
	@Path("/rates")
	public String rate() {
		return "rate " + this.carrier.rate().length();
	}

	/**
	 * Books a pickup with the carrier behind {@code @Bulkhead} at its defaults: 10 calls at once on a synchronous
	 * method, no queue, so the eleventh is refused ({@code BulkheadException}) and Quarkus answers it 500.
	 */
	@GET
	@Path("/pickups")
	@Bulkhead
	public String pickup() {
		return "pickup " + this.carrier.rate().length();
	}

	/**
	 * Stamps a tracking event on the event loop, with code that blocks it for 50 ms (a blocking call left in a
	 * {@code @NonBlocking} route).
	 */
	@GET
	@Path("/tracking")
	@NonBlocking
	public String tracking() throws InterruptedException {
		Thread.sleep(50);
		return "stamped";
	}

	/** Prints a label on a virtual thread, inside a monitor: on Java 21 the sleep pins its carrier. */
	@GET
	@Path("/labels")
	@RunOnVirtualThread
	public String label() throws InterruptedException {
		synchronized (new Object()) {
			Thread.sleep(100);
		}
		return "printed";
	}

}
