package dev.bottleneckkit.sweep.internal.waits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.bottleneckkit.probe.ThreadDump;
import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Step;

/**
 * One wait site across a sweep's steps: at each step, how many request threads waited
 * there and how many threads held what they waited for, on average over the step's dumps.
 * The cap is the site whose waiters grow while its holders stay flat; its model is
 * Little's law, the holders over what a request held them for at one user, at most W₁.
 *
 * @param site where the waiters wait
 * @param steps the site at each step that dumped the service, fewest users first
 */
public record SiteReading(WaitSite site, List<AtStep> steps) {

	/**
	 * The site at one step.
	 *
	 * @param users the step's users
	 * @param throughput its requests a second
	 * @param dumps the dumps it took
	 * @param waiters request threads waiting at the site, on average over its dumps
	 * @param holders threads holding what they wait for in the median dump of those that
	 * show waiters (the lower of the middle two): a dump is taken thread by thread, and
	 * catches some threads taking or giving back what they hold
	 * @param holding the dump of the step with the most waiters
	 */
	public record AtStep(int users, double throughput, int dumps, double waiters, double holders,
			Optional<Holding> holding) {

	}

	/**
	 * A wait site at the cap.
	 *
	 * @param site where the requests wait
	 * @param holders the threads holding what they wait for at the top step
	 * @param holding the top step's dump with the most waiters: how the holders were
	 * found
	 * @param waiters the top step's waiters
	 * @param hold what a request holds it for at most: W₁
	 */
	public record Cap(WaitSite site, int holders, Holding holding, double waiters, Duration hold) {

		/** Little's law: holders over the hold. */
		public double modelRps() {
			return this.holders / (this.hold.toNanos() / 1e9);
		}

		/**
		 * "requests wait in `com.acme.Licences.take` (a monitor's wait): 4 holders,
		 * request threads past `com.acme.LicenceController.quote`, each at most W₁ 0.200
		 * s — 4 / 0.200 s = 20.0 rps".
		 */
		public String line() {
			double seconds = this.hold.toNanos() / 1e9;
			return String.format(Locale.ROOT, "%s, each at most W₁ %.3f s — %d / %.3f s = %.1f rps", saw(), seconds,
					this.holders, seconds, modelRps());
		}

		/**
		 * "requests wait in `com.acme.Licences.take` (a monitor's wait), 6 at once: 4
		 * holders, request threads past `com.acme.LicenceController.quote`".
		 */
		public String saw() {
			String by = switch (this.holding.how()) {
				case PAST_THE_SITE -> "request threads past "
						+ this.holding.frame().map((frame) -> "`" + frame + "`").orElse("the same point");
				case BUSY_WORKERS -> this.holding.workers();
				default -> this.holding.how().words();
			};
			return String.format(Locale.ROOT, "requests wait in %s, %.0f at once: %d holders, %s", this.site,
					this.waiters, this.holders, by);
		}

		/**
		 * The readings a verdict shows of it: its waiters and holders at each step of
		 * {@code sites} that dumped them.
		 */
		public Map<String, String> readings(List<SiteReading> sites) {
			Map<String, String> readings = new LinkedHashMap<>();
			sites.stream()
				.filter((reading) -> reading.site().equals(this.site))
				.flatMap((reading) -> reading.steps().stream())
				.forEach((step) -> readings.put("waiting and holding, " + usersText(step.users()),
						String.format(Locale.ROOT, "%.1f waiting, %.0f holding, in %d dumps", step.waiters(),
								step.holders(), step.dumps())));
			return readings;
		}

	}

	/**
	 * Every wait site the steps' dumps show among {@code requests}, the most waiters at
	 * the top step first.
	 */
	public static List<SiteReading> of(List<Step> steps, Predicate<DumpedThread> requests) {
		Map<WaitSite, List<AtStep>> sites = new LinkedHashMap<>();
		List<Step> dumped = steps.stream()
			.filter((step) -> !step.threads().isEmpty())
			.sorted(Comparator.comparingInt(Step::users))
			.toList();
		for (Step step : dumped) {
			Map<WaitSite, List<Holding>> seen = new LinkedHashMap<>();
			for (ThreadDump dump : step.threads()) {
				for (Holding holding : Holding.in(dump, requests)) {
					seen.computeIfAbsent(holding.site(), (site) -> new ArrayList<>()).add(holding);
				}
			}
			int dumps = step.threads().size();
			seen.forEach((site, holdings) -> sites.computeIfAbsent(site, (s) -> new ArrayList<>())
				.add(new AtStep(step.users(), step.throughput(), dumps,
						holdings.stream().mapToInt((h) -> h.waiters().size()).sum() / (double) dumps,
						lowerMedian(holdings.stream().mapToInt((h) -> h.holders().size()).sorted().toArray()),
						holdings.stream().max(Comparator.comparingInt((Holding h) -> h.waiters().size())))));
		}
		int top = dumped.isEmpty() ? 0 : dumped.get(dumped.size() - 1).users();
		return sites.entrySet()
			.stream()
			.map((e) -> new SiteReading(e.getKey(), List.copyOf(e.getValue())))
			.sorted(Comparator.comparingDouble((SiteReading reading) -> -reading.waitersAt(top)))
			.toList();
	}

	private static double lowerMedian(int[] sorted) {
		return (sorted.length == 0) ? 0 : sorted[(sorted.length - 1) / 2];
	}

	/** The waiters at the step of {@code users}, 0 where it showed none. */
	public double waitersAt(int users) {
		return this.steps.stream().filter((step) -> step.users() == users).mapToDouble(AtStep::waiters).sum();
	}

	/**
	 * The cap among {@code sites}, when one is: the waiters grow while the holders stay
	 * flat. At the top step {@code topUsers} other threads hold what the requests wait
	 * for; over the steps up to it whose holders stayed at the top's (within one, or a
	 * tenth), the waiters grew (from the first of them, or from the step before the top
	 * where it is the only one), and no step before had more holders. Below the knee a
	 * future's holders grow with the users (each request's work on a thread of its own)
	 * while every request waits on its future; at the cap they stop. Of those, the one
	 * with the most waiters.
	 */
	public static Optional<Cap> cap(List<SiteReading> sites, int topUsers, Duration w1) {
		return sites.stream()
			.map((reading) -> reading.capAt(topUsers, w1))
			.flatMap(Optional::stream)
			.max(Comparator.comparingDouble(Cap::waiters));
	}

	private Optional<Cap> capAt(int topUsers, Duration w1) {
		List<AtStep> upToTop = this.steps.stream().filter((step) -> step.users() <= topUsers).toList();
		if (upToTop.isEmpty() || upToTop.get(upToTop.size() - 1).users() != topUsers) {
			return Optional.empty();
		}
		AtStep top = upToTop.get(upToTop.size() - 1);
		if (top.holding().isEmpty() || top.waiters() <= 0) {
			return Optional.empty();
		}
		Holding holding = top.holding().get();
		if (holding.how() == Holding.How.NOT_IN_THE_DUMP || top.holders() < 1) {
			return Optional.empty();
		}
		double tolerance = Math.max(1, 0.1 * top.holders());
		int first = upToTop.size() - 1;
		while (first > 0 && Math.abs(upToTop.get(first - 1).holders() - top.holders()) <= tolerance) {
			first--;
		}
		double before = (first < upToTop.size() - 1) ? upToTop.get(first).waiters()
				: (first > 0) ? upToTop.get(first - 1).waiters() : 0;
		boolean moreHeldBefore = upToTop.subList(0, first)
			.stream()
			.anyMatch((step) -> step.holders() > top.holders() + tolerance);
		if (top.waiters() <= before || moreHeldBefore) {
			return Optional.empty();
		}
		return Optional.of(new Cap(this.site, (int) Math.round(top.holders()), holding, top.waiters(), w1));
	}

	/** "1 user", "8 users". */
	static String usersText(int users) {
		return (users == 1) ? "1 user" : users + " users";
	}

}
