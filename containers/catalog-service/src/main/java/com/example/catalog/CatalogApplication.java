package com.example.catalog;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A catalog as a team writes one: categories and products in a database, read through Spring Data JPA in one
 * read-only transaction, and a page rendered with Thymeleaf after the connection is back in the pool.
 */
@SpringBootApplication
public class CatalogApplication {

	public static void main(String[] args) {
		SpringApplication.run(CatalogApplication.class, args);
	}

}
