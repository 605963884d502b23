package com.example.fulfilment;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** The carrier's quote service. */
@RegisterRestClient(configKey = "carrier")
public interface CarrierClient {

	@GET
	@Path("/quote")
	String rate();

}
