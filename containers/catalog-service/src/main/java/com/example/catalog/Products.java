package com.example.catalog;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

public interface Products extends JpaRepository<Product, Long> {

	@EntityGraph(attributePaths = "category")
	Page<Product> findByCategoryId(Long categoryId, Pageable page);

}
