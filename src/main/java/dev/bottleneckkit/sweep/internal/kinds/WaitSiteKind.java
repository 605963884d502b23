package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.bottleneckkit.probe.GaugeTimeline;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.run.DatabaseLocksProbe;
import dev.bottleneckkit.sweep.internal.waits.Refusal;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;
import dev.bottleneckkit.sweep.internal.waits.WaitSite;

/**
 * Where the requests wait, when no kind before it named the cap: the wait site of the
 * dumps whose waiters grow while its holders stay flat ({@link SiteReading}), asked
 * before a destination's TCP connections, which are a symptom where the dumps show the
 * requests waiting somewhere else. Its model is Little's law, holders / W₁.
 */
public final class WaitSiteKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.WAIT_SITE;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(WaitSiteKind::databaseLocks, WaitSiteKind::waits, WaitSiteKind::refusals);
	}

	/**
	 * Requests waiting in the database for a lock, read from its own lock tables
	 * ({@link DatabaseLocksProbe}): at the top step the lock most transactions waited
	 * for, more than the step before, its holders (the transactions holding it, not
	 * waiting themselves) as many at every step that waited. The pool in front of it is
	 * full because its connections wait there; the lock is the cap, holders over a
	 * transaction's hold of its row locks ({@link #lockHold}), else over W₁.
	 */
	static Optional<Capped> databaseLocks(AtCap at) {
		List<Step> steps = at.readings().steps().stream().sorted(Comparator.comparingInt(Step::users)).toList();
		Step top = at.last();
		Optional<String> lock = top.service()
			.series()
			.keySet()
			.stream()
			.filter((name) -> name.startsWith(DatabaseLocksProbe.WAITING + " "))
			.max(Comparator.comparingDouble((name) -> mean(top, name, false)))
			.map((name) -> name.substring(DatabaseLocksProbe.WAITING.length() + 1));
		if (lock.isEmpty()) {
			return Optional.empty();
		}
		String waiting = DatabaseLocksProbe.WAITING + " " + lock.get();
		String holding = DatabaseLocksProbe.HOLDING + " " + lock.get();
		double waiters = mean(top, waiting, false);
		double before = steps.stream()
			.filter((step) -> step.users() < top.users())
			.reduce((first, second) -> second)
			.map((step) -> mean(step, waiting, false))
			.orElse(0.0);
		List<Step> waited = steps.stream().filter((step) -> mean(step, waiting, false) > 0).toList();
		double most = waited.stream().mapToDouble((step) -> mean(step, holding, true)).max().orElse(0);
		double least = waited.stream().mapToDouble((step) -> mean(step, holding, true)).min().orElse(0);
		int holders = (int) Math.round(mean(top, holding, true));
		if (waiters <= before || holders < 1 || most - least > Math.max(1, 0.1 * most)) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		for (Step step : waited) {
			readings.put("waiting in the database and holding, " + AtCap.usersText(step.users()),
					String.format(Locale.ROOT, "%.1f transactions waiting, %.1f holding", mean(step, waiting, false),
							mean(step, holding, true)));
		}
		String saw = String.format(Locale.ROOT,
				"requests wait in the database for a lock on %s, %.1f transactions at once: %d %s, one"
						+ " transaction's hold each (read from the database's lock tables)",
				lock.get(), waiters, holders, (holders == 1) ? "holder" : "holders");
		Optional<Step> one = lockHold(steps);
		one.ifPresent((step) -> readings.put("a transaction's hold at " + AtCap.usersText(step.users()),
				String.format(Locale.ROOT, "%.2f transactions holding row locks at %.1f rps: %.1f ms",
						mean(step, DatabaseLocksProbe.HELD, false), step.throughput(),
						1000 * mean(step, DatabaseLocksProbe.HELD, false) / step.throughput())));
		Verdict.Model model = one
			.map((step) -> new Verdict.Model(holders, (holders == 1) ? "holder" : "holders",
					Duration.ofNanos(Math.round(mean(step, DatabaseLocksProbe.HELD, false) / step.throughput() * 1e9)),
					"a transaction's hold at " + AtCap.usersText(step.users()) + ", U / X"))
			.orElseGet(() -> new Verdict.Model(holders, (holders == 1) ? "holder" : "holders", at.w1(), "W₁"));
		return Optional.of(at.capped(Resource.WAIT_SITE, saw, model, lock, readings));
	}

	/**
	 * The step that reads how long a transaction holds its row locks: the fewest users'
	 * step where no transaction waited and some held row locks. Its mean holders over its
	 * throughput is the hold (the utilization law, U / X, both from its window): the
	 * request's latency less what it spends outside the transaction. Empty where the
	 * database's transactions were not read.
	 */
	private static Optional<Step> lockHold(List<Step> steps) {
		return steps.stream()
			.filter((step) -> step.throughput() > 0 && step.service().series().containsKey(DatabaseLocksProbe.HELD))
			.filter((step) -> step.service()
				.series()
				.entrySet()
				.stream()
				.noneMatch((series) -> series.getKey().startsWith(DatabaseLocksProbe.WAITING + " ")
						&& mean(step, series.getKey(), false) > 0))
			.filter((step) -> mean(step, DatabaseLocksProbe.HELD, false) > 0)
			.findFirst();
	}

	/**
	 * The mean of a database series over the step's window; {@code whileWaited}: over the
	 * samples whose lock had a waiter only (a lock's holder is read where someone waits
	 * for it).
	 */
	private static double mean(Step step, String name, boolean whileWaited) {
		Map<String, List<GaugeTimeline.Sample>> series = step.service().series();
		List<GaugeTimeline.Sample> samples = series.getOrDefault(name, List.of());
		List<GaugeTimeline.Sample> waits = whileWaited ? series.getOrDefault(
				name.replaceFirst("^" + DatabaseLocksProbe.HOLDING, DatabaseLocksProbe.WAITING), List.of()) : samples;
		Duration opens = step.service().windowOpens();
		Duration closes = step.service().windowCloses();
		double sum = 0;
		int count = 0;
		for (int i = 0; i < samples.size(); i++) {
			GaugeTimeline.Sample sample = samples.get(i);
			if (sample.at().compareTo(opens) < 0 || sample.at().compareTo(closes) > 0) {
				continue;
			}
			if (whileWaited && (i >= waits.size() || waits.get(i).value() <= 0)) {
				continue;
			}
			sum += sample.value();
			count++;
		}
		return (count == 0) ? 0 : sum / count;
	}

	static Optional<Capped> waits(AtCap at) {
		List<SiteReading> sites = SiteReading.of(at.readings().steps(), ResourceKinds.SERVING::serves);
		Optional<SiteReading.Cap> waits = SiteReading.cap(sites, at.last().users(), at.w1());
		return waits.map((cap) -> at.capped(Resource.WAIT_SITE, cap.saw(),
				new Verdict.Model(cap.holders(), "holders", at.w1(), "W₁"), Optional.of(cap.site().frame()),
				cap.readings(sites)));
	}

	/**
	 * A cap that refuses: nothing queues, the extra requests fail fast, and as many
	 * requests as it lets in succeed at once ({@link Refusal}).
	 */
	static Optional<Capped> refusals(AtCap at) {
		return Refusal.of(at.readings().steps(), ResourceKinds.SERVING::serves, at.last().users(), at.w1())
			.map((refusal) -> {
				Map<String, String> readings = new LinkedHashMap<>();
				refusal.steps()
					.forEach((step) -> readings.put("turned away and holding, " + AtCap.usersText(step.users()),
							String.format(Locale.ROOT, "%.0f %% of the answers failed, %.0f successful at once",
									100 * step.share(), step.holders())));
				return at.capped(Resource.WAIT_SITE, refusal.saw(),
						new Verdict.Model(refusal.holders(), "holders", at.w1(), "W₁"),
						refusal.limit().or(() -> refusal.site().map(WaitSite::frame)), readings);
			});
	}

}
