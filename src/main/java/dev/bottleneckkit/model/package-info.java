/**
 * The model a run is judged against: Little's law, λ = L / W
 * ({@link dev.bottleneckkit.model.Ceiling}).
 */
package dev.bottleneckkit.model;
