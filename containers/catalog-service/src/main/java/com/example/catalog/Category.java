package com.example.catalog;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "category")
public class Category {

	@Id
	private Long id;

	private String name;

	public Long getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

}
