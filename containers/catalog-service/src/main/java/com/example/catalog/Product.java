package com.example.catalog;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

@Entity
@Table(name = "product")
public class Product {

	@Id
	private Long id;

	@ManyToOne(fetch = FetchType.LAZY)
	@JoinColumn(name = "category_id")
	private Category category;

	private String name;

	private String description;

	@Column(name = "price_cents")
	private int priceCents;

	private int stock;

	public Long getId() {
		return this.id;
	}

	public Category getCategory() {
		return this.category;
	}

	public String getName() {
		return this.name;
	}

	public String getDescription() {
		return this.description;
	}

	public int getPriceCents() {
		return this.priceCents;
	}

	public int getStock() {
		return this.stock;
	}

}
