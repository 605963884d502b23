package dev.bottleneckkit.sweep.internal.kinds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.bottleneckkit.internal.Knobs;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.Verdict;
import dev.bottleneckkit.sweep.Verdict.Capped;
import dev.bottleneckkit.sweep.internal.analysis.AnalysisPolicy;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.waits.SiteReading;

/**
 * A resource of the team's own, declared by the test ({@link Resource#own(String)}) or by
 * a kind of the team's ({@link dev.bottleneckkit.sweep.Kind}): weighed first, the team
 * knowing its service best. Named in the team's words when, at the cap, its in-use meter
 * shows every one taken in most steps or its waiters' frame holds request threads in most
 * dumps; its model is the limit over what a request holds of it: below the cap, where
 * nothing queues for it, its mean in use over the step's throughput (D = U / X, the
 * utilization law); without that meter, the route's latency at one user, a request
 * holding it at most all of it. Declared by where its waiters wait alone, it names the
 * wait site the dumps find with its holders. Its knob is the declaration's
 * ({@link Resource.Own#turnedBy}) or the test's own.
 */
public final class OwnKind implements ResourceKind {

	@Override
	public Resource resource() {
		return Resource.OWN;
	}

	@Override
	public List<Function<AtCap, Optional<Capped>>> rules() {
		return List.of(OwnKind::declared);
	}

	/** The declared resource that is full at the cap, the one whose model fits best. */
	static Optional<Capped> declared(AtCap at) {
		return at.own()
			.stream()
			.map((own) -> full(at, own))
			.flatMap(Optional::stream)
			.min(Comparator.comparingDouble(Capped::modelError));
	}

	private static Optional<Capped> full(AtCap at, Resource.Own own) {
		if (own.rate().isPresent()) {
			return atItsRate(at, own, own.rate().getAsDouble());
		}
		if (own.configuredLimit().isEmpty() && own.limitMeter().isEmpty()) {
			return claimed(at, own);
		}
		OptionalInt limit = limit(at, own);
		if (limit.isEmpty()) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("limit",
				own.limitMeter()
					.map((meter) -> limit.getAsInt() + " from " + meter.meter())
					.orElse(limit.getAsInt() + " as configured"));
		int fullSteps = 0;
		int mostInUse = 0;
		for (Step step : at.atCap()) {
			OptionalDouble inUse = own.inUse().map((meter) -> step.service().max(meter)).orElse(OptionalDouble.empty());
			if (inUse.isPresent()) {
				mostInUse = Math.max(mostInUse, (int) Math.round(inUse.getAsDouble()));
				fullSteps += (inUse.getAsDouble() >= limit.getAsInt()) ? 1 : 0;
			}
		}
		boolean fullByMeter = fullSteps > 0 && 2 * fullSteps >= at.atCap().size();
		if (own.inUse().isPresent()) {
			readings.put("in use",
					String.format(Locale.ROOT, "%d/%d at most (%s), every one in %d of %d steps at the cap", mostInUse,
							limit.getAsInt(), own.inUse().get().meter(), fullSteps, at.atCap().size()));
		}
		Waiters waiters = waiters(at, own);
		boolean waitedFor = waiters.inMostDumps();
		if (own.waitingFrame().isPresent()) {
			readings.put("waiting", waiters.line());
		}
		if (!fullByMeter && !waitedFor) {
			return Optional.empty();
		}
		Hold hold = hold(at, own, limit.getAsInt());
		readings.put("a request's hold", hold.line());
		String inUse = fullByMeter ? String.format(Locale.ROOT, "%d/%d in use", mostInUse, limit.getAsInt())
				: String.format(Locale.ROOT, "%d of them", limit.getAsInt());
		String waiting = waitedFor ? String.format(Locale.ROOT, ", %d request threads waiting in %s", waiters.most(),
				own.waitingFrame().get()) : "";
		return Optional.of(at.capped(Resource.OWN,
				String.format(Locale.ROOT, "%s (the team's own, %s): %s%s", own.words(), own.declaredBy(), inUse,
						waiting),
				new Verdict.Model(limit.getAsInt(), own.words(), hold.hold(), hold.holdIs()), Optional.of(own.words()),
				readings));
	}

	/**
	 * A resource of the team's own declared only by where its waiters wait: named where
	 * the dumps find the cap ({@link SiteReading#cap}) when that wait site is its frame
	 * (a method, or a class and its methods). The dumps give its holders and its model,
	 * holders / W₁; the declaration its words.
	 */
	private static Optional<Capped> claimed(AtCap at, Resource.Own own) {
		String frame = own.waitingFrame().orElseThrow();
		List<SiteReading> sites = SiteReading.of(at.readings().steps(), ResourceKinds.SERVING::serves);
		return SiteReading.cap(sites, at.last().users(), at.w1())
			.filter((cap) -> cap.site().frame().equals(frame) || cap.site().frame().startsWith(frame + "."))
			.map((cap) -> at.capped(Resource.OWN,
					String.format(Locale.ROOT, "%s (the team's own, %s): %s", own.words(), own.declaredBy(), cap.saw()),
					new Verdict.Model(cap.holders(), own.words(), at.w1(), "W₁"), Optional.of(own.words()),
					cap.readings(sites)));
	}

	/**
	 * A rate of the team's own, named where request threads wait for its permits in most
	 * dumps at the cap. Its model holds no latency: a rate limiter counts requests, not
	 * how long they take.
	 */
	private static Optional<Capped> atItsRate(AtCap at, Resource.Own own, double rate) {
		Waiters waiters = waiters(at, own);
		if (!waiters.inMostDumps()) {
			return Optional.empty();
		}
		Map<String, String> readings = new LinkedHashMap<>();
		readings.put("rate", Knobs.count(rate) + " permits a second as configured");
		readings.put("waiting", waiters.line());
		return Optional.of(at.capped(Resource.OWN,
				String.format(Locale.ROOT,
						"%s (the team's own, %s): %s permits a second, %d request threads waiting in %s", own.words(),
						own.declaredBy(), Knobs.count(rate), waiters.most(), own.waitingFrame().get()),
				new Verdict.Model(rate, "permits", Duration.ofSeconds(1), "a second"), Optional.of(own.words()),
				readings));
	}

	/** The request threads in the declared waiters' frame, over the dumps at the cap. */
	private static Waiters waiters(AtCap at, Resource.Own own) {
		int dumps = 0;
		int most = 0;
		for (AtCap.DumpWaits dump : at.waits()) {
			int here = own.waitingFrame()
				.map((frame) -> dump.dump()
					.matching((thread) -> ResourceKinds.SERVING.serves(thread) && thread.hasFrame(frame))
					.size())
				.orElse(0);
			most = Math.max(most, here);
			dumps += (here > 0) ? 1 : 0;
		}
		return new Waiters(most, dumps, at.waits().size(), at.inMostDumps(dumps), own.waitingFrame().orElse(""));
	}

	/**
	 * Request threads waiting in a declared frame.
	 *
	 * @param most the most in one dump
	 * @param dumps the dumps that showed one
	 * @param of the dumps at the cap
	 * @param inMostDumps whether that is most of them
	 * @param frame the frame
	 */
	private record Waiters(int most, int dumps, int of, boolean inMostDumps, String frame) {

		String line() {
			return String.format(Locale.ROOT, "%d request threads in %s at most, in %d of %d dumps", this.most,
					this.frame, this.dumps, this.of);
		}

	}

	/** The limit as configured, else the most its meter read at the cap. */
	private static OptionalInt limit(AtCap at, Resource.Own own) {
		if (own.configuredLimit().isPresent()) {
			return own.configuredLimit();
		}
		OptionalDouble read = own.limitMeter().map((meter) -> at.last().service().max(meter)).orElseThrow();
		return (read.isPresent() && read.getAsDouble() >= 1) ? OptionalInt.of((int) Math.round(read.getAsDouble()))
				: OptionalInt.empty();
	}

	/**
	 * What a request holds of it, by the utilization law (D = U / X) over the steps below
	 * the knee whose in-use meter read it in use and not full (below
	 * {@value AnalysisPolicy#KNEE_SHARE} of its limit): the time it was held in their
	 * windows (its mean in use × the window) over the requests served in them. Pooling
	 * the steps weighs each by its requests, so no one step's few samples decide. Else
	 * W₁.
	 */
	private static Hold hold(AtCap at, Resource.Own own, int limit) {
		if (own.inUse().isPresent()) {
			double heldSeconds = 0;
			double requests = 0;
			int samples = 0;
			List<Integer> users = new ArrayList<>();
			for (Step step : at.readings().steps()) {
				if (step.users() >= at.kneeUsers() || !(step.throughput() > 0)) {
					continue;
				}
				OptionalDouble mean = step.service().meanInWindow(own.inUse().get());
				if (mean.isPresent() && mean.getAsDouble() > 0
						&& mean.getAsDouble() < AnalysisPolicy.KNEE_SHARE * limit) {
					double window = step.result().window().toNanos() / 1e9;
					heldSeconds += mean.getAsDouble() * window;
					requests += step.throughput() * window;
					samples += step.service().samplesInWindow(own.inUse().get());
					users.add(step.users());
				}
			}
			if (requests > 0) {
				double hold = heldSeconds / requests;
				return new Hold(Duration.ofNanos(Math.round(hold * 1e9)), "U / X below the cap",
						String.format(Locale.ROOT, "%.3f s: held %.1f s for %.0f requests at %s (%d samples)", hold,
								heldSeconds, requests, usersOf(users), samples));
			}
		}
		return new Hold(at.w1(), "W₁",
				String.format(Locale.ROOT,
						"at most the route's latency at one user, %.3f s (no in-use meter read below the cap)",
						at.w1().toNanos() / 1e9));
	}

	/** "1 and 2 users", "2 users". */
	private static String usersOf(List<Integer> users) {
		if (users.size() == 1) {
			return AtCap.usersText(users.get(0));
		}
		String first = users.subList(0, users.size() - 1)
			.stream()
			.map(String::valueOf)
			.collect(Collectors.joining(", "));
		return first + " and " + users.get(users.size() - 1) + " users";
	}

	/** What a request holds, what it is, and how it was read. */
	private record Hold(Duration hold, String holdIs, String line) {

	}

}
