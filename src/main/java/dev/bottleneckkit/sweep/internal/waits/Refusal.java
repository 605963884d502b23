package dev.bottleneckkit.sweep.internal.waits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Step;

/**
 * A cap that refuses instead of queueing: a {@code tryAcquire} that answers 503, a
 * bulkhead or a limiter without a wait. Beyond N at once the extra requests fail fast, so
 * nothing queues where a dump could see it; the N that got in are the holders. They are
 * counted from the load, not from dumps: the successful requests in flight at once, held
 * longest in each step's window, by every request's life
 * ({@link dev.bottleneckkit.load.LoadResult#successesInFlight}). A dump catches a permit
 * between two calls now and then, and a step whose requests fail fast may end before its
 * second dump: three dumps read 8 permits as 7, or 10 as none. N must be the same at
 * every step that turned requests away while the users grew. Where they wait (the call
 * the limit guards) and what limits them (a bulkhead's frame among theirs) come from the
 * top step's dumps, where it has some. Its model is Little's law, holders over W₁.
 *
 * @param holders the successful requests in flight at once at the top step
 * @param site where the holders wait in the top step's dumps, where it has any
 * @param limit the frame of the holders' stacks that limits them, where one names a
 * bulkhead, a limiter, a semaphore or a throttle
 * @param failure the top step's most frequent failure, {@code http-503}
 * @param share the share of the top step's answers that failed
 * @param users the top step's users
 * @param hold what a request holds it for at most: W₁
 * @param steps the holders at each step that turned requests away, fewest users first
 */
public record Refusal(int holders, Optional<WaitSite> site, Optional<String> limit, String failure, double share,
		int users, Duration hold, List<AtStep> steps) {

	/**
	 * The share of a step's answers that must fail for the step to count as turning
	 * requests away (as the sweep's climb counts it).
	 */
	public static final double REFUSED_SHARE = 0.1;

	/**
	 * Words in a class's name that say it limits what passes: a bulkhead's, a limiter's.
	 */
	private static final Pattern LIMITS = Pattern.compile(".*(Bulkhead|Limiter|Semaphore|Throttl).*");

	/**
	 * One step that turned requests away.
	 *
	 * @param users the step's users
	 * @param share the share of its answers that failed
	 * @param holders the successful requests in flight at once
	 */
	public record AtStep(int users, double share, double holders) {

	}

	/**
	 * The refusing cap among {@code steps}, when one is: the top step {@code topUsers}
	 * failed at least {@value #REFUSED_SHARE} of its answers, more than the first step;
	 * over every step that did, the successful requests in flight at once were the same
	 * (within one, or a tenth), fewer than the users.
	 */
	public static Optional<Refusal> of(List<Step> steps, Predicate<DumpedThread> requests, int topUsers, Duration w1) {
		List<Step> sorted = steps.stream().sorted(Comparator.comparingInt(Step::users)).toList();
		Optional<Step> top = sorted.stream().filter((step) -> step.users() == topUsers).findFirst();
		if (sorted.isEmpty() || top.isEmpty()) {
			return Optional.empty();
		}
		double share = share(top.get());
		if (share < REFUSED_SHARE || share <= share(sorted.get(0))) {
			return Optional.empty();
		}
		List<AtStep> refusing = new ArrayList<>();
		for (Step step : sorted) {
			if (share(step) >= REFUSED_SHARE) {
				OptionalInt inFlight = step.result().successesInFlight();
				if (inFlight.isEmpty()) {
					return Optional.empty();
				}
				refusing.add(new AtStep(step.users(), share(step), inFlight.getAsInt()));
			}
		}
		double most = refusing.stream().mapToDouble(AtStep::holders).max().orElse(0);
		double least = refusing.stream().mapToDouble(AtStep::holders).min().orElse(0);
		int holders = (int) Math.round(refusing.get(refusing.size() - 1).holders());
		if (holders < 1 || holders >= topUsers || most - least > Math.max(1, 0.1 * most)) {
			return Optional.empty();
		}
		Map.Entry<String, Long> failure = top.get()
			.result()
			.errors()
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElse(Map.entry("an error", 0L));
		Optional<WaitSite> site = mostWaitedAt(top.get(), requests);
		Optional<String> limit = site.flatMap((at) -> limit(top.get(), requests, at));
		return Optional
			.of(new Refusal(holders, site, limit, failure.getKey(), share, topUsers, w1, List.copyOf(refusing)));
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
			.map(Map.Entry::getKey)
			.collect(Collectors.groupingBy((site) -> site, Collectors.counting()))
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey);
	}

	/**
	 * The frame nearest the site that every request thread waiting at {@code site} in the
	 * step's dumps passed through, of a class named for a limit ({@link #LIMITS}).
	 */
	private static Optional<String> limit(Step step, Predicate<DumpedThread> requests, WaitSite site) {
		List<List<String>> stacks = step.threads()
			.stream()
			.flatMap((dump) -> waiting(dump, requests).stream())
			.filter((waits) -> waits.getKey().equals(site))
			.map((waits) -> waits.getValue().frames())
			.toList();
		if (stacks.isEmpty()) {
			return Optional.empty();
		}
		return stacks.get(0)
			.stream()
			.filter((frame) -> LIMITS.matcher(className(frame)).matches())
			.filter((frame) -> stacks.stream().allMatch((stack) -> stack.contains(frame)))
			.findFirst();
	}

	/**
	 * {@code io.smallrye.faulttolerance.core.bulkhead.Bulkhead.apply} → {@code Bulkhead}.
	 */
	private static String className(String frame) {
		int method = frame.lastIndexOf('.');
		String type = (method > 0) ? frame.substring(0, method) : frame;
		return type.substring(type.lastIndexOf('.') + 1);
	}

	private static List<Map.Entry<WaitSite, DumpedThread>> waiting(ThreadDump dump, Predicate<DumpedThread> requests) {
		return dump.threads()
			.stream()
			.filter(requests)
			.flatMap((thread) -> WaitSite.of(thread).map((site) -> Map.entry(site, thread)).stream())
			.toList();
	}

	/** Little's law: holders over the hold. */
	public double modelRps() {
		return this.holders / (this.hold.toNanos() / 1e9);
	}

	/**
	 * "beyond 8 at once, requests fail with http-503: 8 holders, the successful requests
	 * in flight, limited in `io.smallrye.faulttolerance.core.bulkhead.Bulkhead.apply`,
	 * waiting in `com.acme.Partner.quote` (a future)". The failed answers' count and
	 * share close every verdict's line ({@link dev.bottleneckkit.sweep.Verdict#FAILED}).
	 */
	public String saw() {
		StringBuilder saw = new StringBuilder(String.format(Locale.ROOT,
				"beyond %d at once, requests fail with %s: %d holders, the successful requests in flight", this.holders,
				this.failure, this.holders));
		this.limit.ifPresent((frame) -> saw.append(", limited in `").append(frame).append('`'));
		this.site.ifPresent((at) -> saw.append(", waiting in ").append(at));
		return saw.toString();
	}

}
