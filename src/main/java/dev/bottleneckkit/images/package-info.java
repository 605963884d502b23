/**
 * Where images are chosen: {@link dev.bottleneckkit.images.KitImages}, official or
 * offline, in one place.
 */
package dev.bottleneckkit.images;
