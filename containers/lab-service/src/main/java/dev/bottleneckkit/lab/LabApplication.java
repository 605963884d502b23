package dev.bottleneckkit.lab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The lab service: one Spring Boot jar that plays the <em>downstream</em> (profile
 * {@code downstream}), the <em>caller</em> (profile {@code caller}), or both at once in
 * the fast tests. Every knob is an ordinary Spring Boot property, so containers set it
 * through environment variables.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class LabApplication {

	public static void main(String[] args) {
		SpringApplication.run(LabApplication.class, args);
	}

}
