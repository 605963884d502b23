package com.example.guards;

import dev.bottleneckkit.sweep.Kind;
import dev.bottleneckkit.sweep.Resource;

/**
 * The stock service's renderers, the team's own pool of labels' renderers: a kind of the team's, which every sweep
 * of this project knows through {@code META-INF/services/dev.bottleneckkit.sweep.Kind}, no test declaring it. It
 * says only where the renderers' waiters wait and which setting sizes the pool; the thread dumps find its holders and
 * its model.
 */
public final class RenderersKind implements Kind {

	@Override
	public Resource.Own resource() {
		return Resource.own("renderers")
			.waitingIn("com.example.stock.StockApplication.label")
			.turnedBy("stock.renderers");
	}

}
