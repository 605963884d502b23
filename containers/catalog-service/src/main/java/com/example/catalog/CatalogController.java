package com.example.catalog;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The catalog's page, rendered with Thymeleaf once the transaction has given its connection back. */
@Controller
public class CatalogController {

	private final Catalog catalog;

	CatalogController(Catalog catalog) {
		this.catalog = catalog;
	}

	@GetMapping("/catalog")
	public String catalog(@RequestParam(defaultValue = "1") long category, @RequestParam(defaultValue = "0") int page,
			Model model) {
		model.addAttribute("page", this.catalog.page(category, page));
		return "catalog";
	}

}
