package dev.bottleneckkit.sweep.internal.waits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Step;

/**
 * A cap that refuses instead of queueing: a {@code tryAcquire} that answers 503, a
 * bulkhead or a limiter without a wait. Beyond N at once the extra requests fail fast, so
 * nothing queues where a dump could see it; the N that got in are the holders, and they
 * are seen where they are: waiting at one site (the call the limit guards), as many in
 * every dump of every step that turned requests away, while the users grew. Its model is
 * Little's law, holders over W₁.
 *
 * @param holders the request threads waiting at {@code site} at the top step, the lower
 * median over its dumps
 * @param site where the holders wait
 * @param failure the top step's most frequent failure, {@code http-503}
 * @param share the share of the top step's answers that failed
 * @param users the top step's users
 * @param hold what a request holds it for at most: W₁
 * @param steps the holders at each step that turned requests away, fewest users first
 */
public record Refusal(int holders, WaitSite site, String failure, double share, int users, Duration hold,
		List<AtStep> steps) {

	/**
	 * The share of a step's answers that must fail for the step to count as turning
	 * requests away (as the sweep's climb counts it).
	 */
	public static final double REFUSED_SHARE = 0.1;

	/**
	 * One step that turned requests away.
	 *
	 * @param users the step's users
	 * @param share the share of its answers that failed
	 * @param holders request threads waiting at the site, lower median over its dumps
	 */
	public record AtStep(int users, double share, double holders) {

	}

	/**
	 * The refusing cap among {@code steps}, when one is: the top step {@code topUsers}
	 * failed at least {@value #REFUSED_SHARE} of its answers, more than the first step;
	 * over every step that did, the request threads waiting at the site most of them
	 * waited at stayed within one (or a tenth) of each other, and fewer than the users.
	 */
	public static Optional<Refusal> of(List<Step> steps, Predicate<DumpedThread> requests, int topUsers, Duration w1) {
		List<Step> sorted = steps.stream().sorted(Comparator.comparingInt(Step::users)).toList();
		Optional<Step> top = sorted.stream().filter((step) -> step.users() == topUsers).findFirst();
		if (sorted.isEmpty() || top.isEmpty() || top.get().threads().isEmpty()) {
			return Optional.empty();
		}
		double share = share(top.get());
		if (share < REFUSED_SHARE || share <= share(sorted.get(0))) {
			return Optional.empty();
		}
		Optional<WaitSite> site = mostWaitedAt(top.get(), requests);
		if (site.isEmpty()) {
			return Optional.empty();
		}
		List<AtStep> refusing = new ArrayList<>();
		for (Step step : sorted) {
			if (share(step) >= REFUSED_SHARE && !step.threads().isEmpty()) {
				refusing.add(new AtStep(step.users(), share(step), holders(step, requests, site.get())));
			}
		}
		double most = refusing.stream().mapToDouble(AtStep::holders).max().orElse(0);
		double least = refusing.stream().mapToDouble(AtStep::holders).min().orElse(0);
		int holders = (int) Math.round(refusing.get(refusing.size() - 1).holders());
		if (holders < 1 || holders >= topUsers || most - least > Math.max(1, 0.1 * most)) {
			return Optional.empty();
		}
		String failure = top.get()
			.result()
			.errors()
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey)
			.orElse("an error");
		return Optional.of(new Refusal(holders, site.get(), failure, share, topUsers, w1, List.copyOf(refusing)));
	}

	private static double share(Step step) {
		long completed = step.result().completed();
		return (completed == 0) ? 0 : step.result().errorCount() / (double) completed;
	}

	/** The site where most request threads waited over the step's dumps. */
	private static Optional<WaitSite> mostWaitedAt(Step step, Predicate<DumpedThread> requests) {
		return step.threads()
			.stream()
			.flatMap((dump) -> waiting(dump, requests).stream())
			.collect(Collectors.groupingBy((site) -> site, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey);
	}

	private static List<WaitSite> waiting(ThreadDump dump, Predicate<DumpedThread> requests) {
		return dump.threads().stream().filter(requests).map(WaitSite::of).flatMap(Optional::stream).toList();
	}

	private static double holders(Step step, Predicate<DumpedThread> requests, WaitSite site) {
		int[] counts = step.threads()
			.stream()
			.mapToInt((dump) -> (int) waiting(dump, requests).stream().filter(site::equals).count())
			.sorted()
			.toArray();
		return counts[(counts.length - 1) / 2];
	}

	/** Little's law: holders over the hold. */
	public double modelRps() {
		return this.holders / (this.hold.toNanos() / 1e9);
	}

	/**
	 * "beyond 8 at once, requests fail with http-503 (62 % of the answers at 32 users): 8
	 * holders, request threads waiting in `com.acme.Partner.quote` (a future)".
	 */
	public String saw() {
		return String.format(Locale.ROOT,
				"beyond %d at once, requests fail with %s (%.0f %% of the answers at %d users): %d holders, "
						+ "request threads waiting in %s",
				this.holders, this.failure, 100 * this.share, this.users, this.holders, this.site);
	}

}
