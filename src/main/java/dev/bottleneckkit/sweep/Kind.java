package dev.bottleneckkit.sweep;

import java.util.ServiceLoader;

/**
 * A resource of the team's own that every sweep knows without a word in the test: its
 * words, where its waiters wait or its meters, and its knob, in one class the team ships
 * once, in its test sources or in a jar. The kit finds it with {@link ServiceLoader}, as
 * it finds its own kinds: a public class with a public no-argument constructor, named in
 * {@code META-INF/services/dev.bottleneckkit.sweep.Kind}.
 *
 * <pre>{@code
 * public final class Renderers implements Kind {
 *
 *     public Resource.Own resource() {
 *         return Resource.own("renderers").waitingIn("com.example.stock.StockApplication.label")
 *             .turnedBy("stock.renderers");
 *     }
 *
 * }
 * }</pre>
 *
 * With only where its waiters wait, it names the cap where the thread dumps find the
 * requests waiting there ({@link Resource#WAIT_SITE}): the dumps give its holders and its
 * model, the kind its words and its knob. A test's own declaration of the same words
 * ({@link Sweep#knowing}) wins.
 */
public interface Kind {

	/** The resource, as {@link Resource#own(String)} declares it. */
	Resource.Own resource();

}
