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

		/**
		 * The waiters queued beyond what the holders are doing: a future's waiters
		 * include the requests whose work the busy workers run, one each; at a permit or
		 * a monitor every waiter is queued.
		 */
		public double queued() {
			boolean workers = this.holding.filter((held) -> held.how() == Holding.How.BUSY_WORKERS).isPresent();
			return workers ? Math.max(0, this.waiters - this.holders) : this.waiters;
		}

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
	 * The cap among {@code sites}, when one is: at the top step {@code topUsers} its
	 * queued waiters ({@link AtStep#queued}) are more than the step before's, other
	 * threads hold what they wait for, and those holders stayed within one (or a tenth)
	 * of each other over every step that queued. Of those, the one with the most waiters.
	 */
	public static Optional<Cap> cap(List<SiteReading> sites, int topUsers, Duration w1) {
		return sites.stream()
			.map((reading) -> reading.capAt(topUsers, w1))
			.flatMap(Optional::stream)
			.max(Comparator.comparingDouble(Cap::waiters));
	}

	private Optional<Cap> capAt(int topUsers, Duration w1) {
		Optional<AtStep> top = this.steps.stream().filter((step) -> step.users() == topUsers).findFirst();
		if (top.isEmpty() || top.get().holding().isEmpty() || top.get().queued() <= 0) {
			return Optional.empty();
		}
		Holding holding = top.get().holding().get();
		if (holding.how() == Holding.How.NOT_IN_THE_DUMP || top.get().holders() < 1) {
			return Optional.empty();
		}
		double before = this.steps.stream()
			.filter((step) -> step.users() < topUsers)
			.max(Comparator.comparingInt(AtStep::users))
			.map(AtStep::queued)
			.orElse(0.0);
		if (top.get().queued() <= before) {
			return Optional.empty();
		}
		double most = this.steps.stream().mapToDouble(AtStep::holders).max().orElse(0);
		double least = this.steps.stream()
			.filter((step) -> step.queued() > 0)
			.mapToDouble(AtStep::holders)
			.min()
			.orElse(0);
		if (most - least > Math.max(1, 0.1 * most)) {
			return Optional.empty();
		}
		return Optional.of(new Cap(this.site, (int) Math.round(top.get().holders()), holding, top.get().waiters(), w1));
	}

	/** "1 user", "8 users". */
	static String usersText(int users) {
		return (users == 1) ? "1 user" : users + " users";
	}

}
