/**
 * What runs in containers: {@link dev.bottleneckkit.containers.ServiceContainer} (your
 * service), {@link dev.bottleneckkit.containers.KitContainers} (MySQL, Toxiproxy) and
 * {@link dev.bottleneckkit.containers.KitContainers} (labels, so a killed run's leftovers
 * are removed).
 */
package dev.bottleneckkit.containers;
