/**
 * The kit's machinery: not API. Types here are public only so that the kit's own packages
 * can share them; they change without notice. Scenarios use {@code load}, {@code model},
 * {@code assertions}, {@code probe}, {@code containers}, {@code images} and
 * {@code junit}.
 */
package dev.bottleneckkit.internal;
