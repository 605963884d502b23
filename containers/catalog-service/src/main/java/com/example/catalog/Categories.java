package com.example.catalog;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Categories extends JpaRepository<Category, Long> {

}
