package com.example.catalog;

import java.util.List;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The catalog's pages, each read in one read-only transaction: one connection from the pool a page. */
@Service
public class Catalog {

	/** One page of the catalog. */
	public record Page40(List<Category> categories, Category current, Page<Product> products, long stockValueCents) {

	}

	private final Categories categories;

	private final Products products;

	Catalog(Categories categories, Products products) {
		this.categories = categories;
		this.products = products;
	}

	@Transactional(readOnly = true)
	public Page40 page(long category, int page) {
		List<Category> all = this.categories.findAll(Sort.by("name"));
		Category current = all.stream().filter((c) -> c.getId() == category).findFirst().orElse(all.get(0));
		Page<Product> products = this.products.findByCategoryId(current.getId(), PageRequest.of(page, 40, Sort.by("name")));
		long value = products.stream().mapToLong((p) -> (long) p.getPriceCents() * p.getStock()).sum();
		return new Page40(all, current, products, value);
	}

}
