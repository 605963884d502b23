package dev.bottleneckkit.sweep.internal.run;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.bottleneckkit.containers.AbstractServiceContainer;
import dev.bottleneckkit.containers.DownstreamContainer;
import dev.bottleneckkit.internal.Databases;
import dev.bottleneckkit.internal.JmxAgent;
import dev.bottleneckkit.internal.RunHook;
import dev.bottleneckkit.probe.Gauge;
import dev.bottleneckkit.probe.PinningProbe;
import dev.bottleneckkit.probe.ServiceGauges;
import dev.bottleneckkit.probe.ThreadDumpProbe;
import dev.bottleneckkit.sweep.Step;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKind;
import dev.bottleneckkit.sweep.internal.kinds.ResourceKinds;
import dev.bottleneckkit.sweep.internal.read.Carriers;
import dev.bottleneckkit.sweep.internal.read.JitWork;
import dev.bottleneckkit.sweep.internal.read.MachineCpu;
import dev.bottleneckkit.sweep.internal.read.OutboundConnections;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.JdbcDatabaseContainer;

/**
 * The probes of one sweep, on the service it loads: the {@link StepProbe}s that can see,
 * begun and ended around each step. A probe that cannot open, or can no longer see, says
 * so in one line ({@link #blind()}), once, and is left out from then on; the sweep goes
 * on without it.
 */
public final class Probes implements AutoCloseable {

	/**
	 * How often the team's own meters are read between the rounds: the mean of a
	 * resource's in-use gauge below the cap is what a request holds of it
	 * ({@link dev.bottleneckkit.sweep.internal.kinds.OwnKind}), and a one-second window
	 * read every 250 ms gives four samples.
	 */
	static final Duration OWN_METERS_EVERY = Duration.ofMillis(50);

	/**
	 * The probes that still see, in the order they begin a step; they end it in reverse.
	 */
	private final List<StepProbe> seeing;

	private final Set<String> blind;

	/** Where the service's meters were last read, once a step has read them. */
	private Optional<String> meters = Optional.empty();

	/** The service's JMX agent, where its configuration is read. */
	private final Optional<JmxAgent> jmx;

	private Probes(List<StepProbe> seeing, Set<String> blind, Optional<JmxAgent> jmx) {
		this.seeing = seeing;
		this.blind = blind;
		this.jmx = jmx;
	}

	/**
	 * Opens the probes {@code service} (when the kit sees it) and {@code downstream}
	 * (when watched) get: the service's meters, its downstream's, its pinned threads, its
	 * CPU and the machine's, its carriers, its outbound connections, its thread dumps.
	 */
	public static Probes open(Optional<AbstractServiceContainer<?>> service, Optional<GenericContainer<?>> downstream,
			List<Gauge> meters) {
		try (RunHook.Span opening = RunHook.installed().begin(RunHook.Work.PROBE, "opening probes")) {
			List<StepProbe> seeing = new ArrayList<>();
			Set<String> blind = new LinkedHashSet<>();
			service.ifPresent((loaded) -> seeing.add(MetersProbe
				.ofTheService(() -> ServiceGauges.on(loaded).often(OWN_METERS_EVERY, meters.toArray(Gauge[]::new)))));
			downstream.ifPresent((watched) -> seeing.add(downstream(watched)));
			service.ifPresent((loaded) -> openOn(loaded, downstream, seeing, blind));
			return new Probes(seeing, blind, service.flatMap(JmxAgent::of));
		}
	}

	/** The probes that read the service itself, each that opens. */
	private static void openOn(AbstractServiceContainer<?> service, Optional<GenericContainer<?>> downstream,
			List<StepProbe> seeing, Set<String> blind) {
		Optional<JmxAgent> jmx = JmxAgent.of(service);
		if (jmx.isEmpty()) {
			blind.add("thread dumps, pinned threads and carriers: the service's JMX agent is off"
					+ " (withoutJmx()); leave it on to see locks, thread pools and pinning");
		}
		else {
			try {
				seeing.add(new PinsProbe(PinningProbe.on(service).withThreshold(Duration.ZERO).start()));
			}
			catch (RuntimeException ex) {
				blind.add("pinned threads: JMX at " + jmx.get() + " refused the recording ("
						+ StepProbe.Blind.rootMessage(ex) + "); a JVM with jdk.management.jfr is needed");
			}
		}
		try {
			MachineCpu cpu = MachineCpu.around(service, downstream);
			cpu.blind().ifPresent(blind::add);
			seeing.add(new CpuProbe(cpu));
		}
		catch (RuntimeException ex) {
			blind.add("CPU: not read (" + StepProbe.Blind.rootMessage(ex) + ")");
		}
		if (jmx.isPresent()) {
			try {
				seeing.add(new CarriersProbe(Carriers.connect(jmx.get(), service)));
			}
			catch (RuntimeException ex) {
				blind
					.add("carriers: JMX at " + jmx.get() + " did not answer (" + StepProbe.Blind.rootMessage(ex) + ")");
			}
		}
		try {
			seeing.add(new ConnectionsProbe(OutboundConnections.of(service).start()));
		}
		catch (RuntimeException ex) {
			blind.add("outbound connections: the socket reader did not start (" + StepProbe.Blind.rootMessage(ex)
					+ "); pools without meters cannot be seen");
		}
		for (JdbcDatabaseContainer<?> database : Databases.on(service.getNetwork())) {
			try {
				seeing.add(DatabaseLocksProbe.on(database));
			}
			catch (StepProbe.Blind ex) {
				blind.add(ex.getMessage());
			}
		}
		if (jmx.isPresent()) {
			try {
				seeing.add(new JitProbe(JitWork.connect(jmx.get(), service)));
			}
			catch (RuntimeException ex) {
				blind.add("the JIT compilers: JMX at " + jmx.get() + " did not answer ("
						+ StepProbe.Blind.rootMessage(ex) + "); a step's warmth is not known");
			}
			seeing.add(new DumpsProbe(ThreadDumpProbe.on(service)));
		}
	}

	/** A downstream's probe: a kit stand-in's in-flight count, else its meters. */
	private static StepProbe downstream(GenericContainer<?> downstream) {
		if (downstream instanceof DownstreamContainer standIn) {
			return new StandInProbe(standIn);
		}
		if (downstream instanceof AbstractServiceContainer<?> service) {
			return MetersProbe.ofTheDownstream(() -> ServiceGauges.on(service));
		}
		return MetersProbe.ofTheDownstream(() -> ServiceGauges.at(uriOf(downstream)));
	}

	/** What the probes could not see, each in one line naming what to change. */
	List<String> blind() {
		return List.copyOf(this.blind);
	}

	/** Where the service's meters were read, once a step has read them. */
	Optional<String> meters() {
		return this.meters;
	}

	/** Begins every probe's reading of a step whose load is about to start. */
	void begin(StepProbe.Plan plan) {
		try (RunHook.Span reading = RunHook.installed().begin(RunHook.Work.PROBE, "beginning a step")) {
			Iterator<StepProbe> probes = this.seeing.iterator();
			while (probes.hasNext()) {
				StepProbe probe = probes.next();
				try {
					probe.begin(plan);
				}
				catch (StepProbe.Blind ex) {
					leaveOut(probe, probes, ex);
				}
			}
		}
	}

	/** Ends every probe's reading of the step: what they read over {@code window}. */
	ProbeReadings end(StepProbe.Window window) {
		try (RunHook.Span reading = RunHook.installed().begin(RunHook.Work.PROBE, "ending a step")) {
			ProbeReadings.Builder readings = new ProbeReadings.Builder();
			for (StepProbe probe : List.copyOf(this.seeing).reversed()) {
				try {
					probe.end(window, readings);
				}
				catch (StepProbe.Blind ex) {
					this.seeing.remove(probe);
					leaveOut(probe, ex);
				}
			}
			this.blind.addAll(readings.blind());
			readings.meters().ifPresent((source) -> this.meters = Optional.of(source));
			return readings.readings();
		}
	}

	/**
	 * What each kind reads of the service's configuration over JMX once after
	 * {@code steps} ({@link ResourceKind#settings}); none where the service's JVM is not
	 * read.
	 */
	List<Record> readSettings(List<Step> steps) {
		if (this.jmx.isEmpty()) {
			return List.of();
		}
		List<String> lines = new ArrayList<>();
		List<Record> settings = ResourceKinds.ALL.stream()
			.flatMap((kind) -> kind.settings(steps, this.jmx.get(), lines).stream())
			.map(Record.class::cast)
			.toList();
		this.blind.addAll(lines);
		return settings;
	}

	private void leaveOut(StepProbe probe, Iterator<StepProbe> probes, StepProbe.Blind why) {
		probes.remove();
		leaveOut(probe, why);
	}

	private void leaveOut(StepProbe probe, StepProbe.Blind why) {
		this.blind.add(why.getMessage());
		probe.close();
	}

	@Override
	public void close() {
		this.seeing.forEach(StepProbe::close);
		this.seeing.clear();
	}

	private static URI uriOf(GenericContainer<?> container) {
		int port = container.getExposedPorts().get(0);
		return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(port));
	}

}
