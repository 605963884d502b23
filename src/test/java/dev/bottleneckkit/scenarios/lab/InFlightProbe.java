package dev.bottleneckkit.scenarios.lab;

import java.net.URI;
import java.time.Duration;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

/**
 * Reads a lab service's in-flight probe ({@code /probe/in-flight}): requests being served
 * now, the peak since the last reset, requests completed since then and how many of them
 * were abandoned by their client. A downstream's peak is what a scenario asserts as the
 * mechanism: behind a pool of 5 connections it is exactly 5, whatever the load.
 */
public final class InFlightProbe {

	private final URI base;

	public InFlightProbe(URI base) {
		this.base = base;
	}

	/** The current reading. */
	public InFlight read() {
		return parse(RestAssured.given().baseUri(this.base.toString()).get("/probe/in-flight"));
	}

	/**
	 * Starts a new window (peak restarts from current) and returns the reading of the
	 * window that ended.
	 */
	public InFlight reset() {
		return parse(RestAssured.given().baseUri(this.base.toString()).delete("/probe/in-flight"));
	}

	private static InFlight parse(io.restassured.response.Response response) {
		JsonPath json = response.then().statusCode(200).extract().jsonPath();
		return new InFlight(json.getInt("current"), json.getInt("peak"), json.getLong("completed"),
				json.getLong("abandoned"), Duration.ofNanos(Math.round(json.getDouble("meanMs") * 1e6)));
	}

	/**
	 * One reading.
	 *
	 * @param current requests being served now
	 * @param peak most requests served at once since the last reset
	 * @param completed requests completed since the last reset, answered or abandoned
	 * @param abandoned requests of those whose client went away before the answer
	 * ({@code /work/steps} notices; a plain sleep does not)
	 * @param meanServiceTime the mean time the completed ones spent in the service: W of
	 * Little's law here, measured while the load ran
	 */
	public record InFlight(int current, int peak, long completed, long abandoned, Duration meanServiceTime) {
	}

}
