package dev.bottleneckkit.sweep;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.waits.Refusal;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;

/**
 * Where the requests wait, when no kind before it named the cap: the wait site of the
 * dumps whose waiters grow while its holders stay flat ({@link SiteReading}), asked
 * before a destination's TCP connections, which are a symptom where the dumps show the
 * requests waiting somewhere else. Its model is Little's law, holders / W₁.
 */
final class WaitSiteKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.WAIT_SITE;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(WaitSiteKind::waits);
	}

	static Optional<Capped> waits(AtCap at) {
		List<SiteReading> sites = SiteReading.of(at.readings().steps(), ThreadDumps::servesARequest);
		Optional<SiteReading.Cap> waits = SiteReading.cap(sites, at.last().users(), at.w1());
		if (waits.isEmpty()) {
			return refusals(at);
		}
		return waits.map((cap) -> {
			Map<String, String> readings = new LinkedHashMap<>();
			sites.stream()
				.filter((reading) -> reading.site().equals(cap.site()))
				.flatMap((reading) -> reading.steps().stream())
				.forEach((step) -> readings.put("waiting and holding, " + AtCap.usersText(step.users()),
						String.format(Locale.ROOT, "%.1f waiting, %.0f holding, in %d dumps", step.waiters(),
								step.holders(), step.dumps())));
			return at.capped(Resource.WAIT_SITE, cap.saw(), new Verdict.Model(cap.holders(), "holders", at.w1(), "W₁"),
					Optional.of(cap.site().frame()), readings);
		});
	}

	/**
	 * A cap that refuses: nothing queues, the extra requests fail fast, and as many
	 * request threads as it lets in wait at the call it guards ({@link Refusal}).
	 */
	static Optional<Capped> refusals(AtCap at) {
		return Refusal.of(at.readings().steps(), ThreadDumps::servesARequest, at.last().users(), at.w1())
			.map((refusal) -> {
				Map<String, String> readings = new LinkedHashMap<>();
				refusal.steps()
					.forEach((step) -> readings.put("turned away and holding, " + AtCap.usersText(step.users()),
							String.format(Locale.ROOT, "%.0f %% of the answers failed, %.0f holding",
									100 * step.share(), step.holders())));
				return at.capped(Resource.WAIT_SITE, refusal.saw(),
						new Verdict.Model(refusal.holders(), "holders", at.w1(), "W₁"),
						Optional.of(refusal.site().frame()), readings);
			});
	}

}
