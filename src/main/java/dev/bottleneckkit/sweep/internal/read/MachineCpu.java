package dev.bottleneckkit.sweep.internal.read;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerNetwork;
import dev.bottleneckkit.internal.ContainerCpu;
import dev.bottleneckkit.internal.DockerHost;
import dev.bottleneckkit.sweep.Step;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * Where a machine's CPU goes while a service is loaded: the service's container, the
 * test's other containers (its database, proxies, stand-ins), the test's own JVM with the
 * load generator, and the machine they share. Two {@link #read() readings} around a step
 * give each one's cores on average ({@link #between}).
 *
 * <p>
 * A service without a CPU limit on a small machine is CPU-bound when the machine's cores
 * are busy, whoever else uses them: a service at 1.6 of 2 cores with its database and the
 * load generator using the rest has no CPU left, though its own container is "below its
 * limit". With a local engine the machine's total comes from {@code /proc/stat} (every
 * process counted) and each container's CPU from its cgroup on the host; with a remote
 * engine the same counters are read on the engine's host by a small container
 * ({@link EngineHostCpu}), else each container's CPU through the engine
 * ({@link ContainerCpu}) and the machine's as the sum of the test's parts.
 */
public final class MachineCpu {

	private static final String SESSION_LABEL = "org.testcontainers.sessionId";

	private static final Path PROC_STAT = Path.of("/proc/stat");

	/** Ticks per second of {@code /proc/stat} (USER_HZ, 100 on Linux). */
	private static final double TICKS_PER_SECOND = 100.0;

	private final GenericContainer<?> service;

	private final GenericContainer<?> downstream;

	private final boolean local = DockerHost.engineIsLocal();

	private final double machineCores;

	private final Map<String, ContainerCpu> remote = new ConcurrentHashMap<>();

	/**
	 * The reader on a remote engine's host; empty with a local engine, or where it cannot
	 * read.
	 */
	private final Optional<EngineHostCpu> engineHost;

	/**
	 * Why a remote engine's host is not read there; empty when it is, or the engine is
	 * local.
	 */
	private final Optional<String> blind;

	private MachineCpu(GenericContainer<?> service, GenericContainer<?> downstream) {
		this.service = service;
		this.downstream = downstream;
		Integer cpus = DockerClientFactory.instance().getInfo().getNCPU();
		this.machineCores = (cpus != null && cpus > 0) ? cpus : Runtime.getRuntime().availableProcessors();
		if (this.local) {
			this.engineHost = Optional.empty();
			this.blind = Optional.empty();
		}
		else {
			EngineHostCpu.Reader reader = EngineHostCpu.reading(engine(), service.getContainerId());
			this.engineHost = reader.cpu();
			this.blind = reader.cpu().isPresent() ? Optional.empty()
					: Optional.of("the CPU of the engine's host (" + engine() + "): " + reader.whyNot()
							+ "; each container's CPU is read through the engine, the machine's is the test's"
							+ " containers and load generator together");
		}
	}

	private static String engine() {
		try {
			return DockerClientFactory.instance().getTransportConfig().getDockerHost().toString();
		}
		catch (RuntimeException ex) {
			return "a remote engine";
		}
	}

	/**
	 * Why the CPU is read less well than on a local engine, in one line; empty when it is
	 * not.
	 */
	public Optional<String> blind() {
		return this.blind;
	}

	/**
	 * The CPU of the machine {@code service} runs on, split by container;
	 * {@code downstream} (may be empty) is told apart because a verdict may name it.
	 */
	public static MachineCpu around(GenericContainer<?> service, Optional<GenericContainer<?>> downstream) {
		return new MachineCpu(service, downstream.orElse(null));
	}

	/** One reading of every counter, now. */
	public Reading read() {
		List<Container> containers = testContainers();
		if (this.engineHost.isPresent()) {
			List<String> ids = containers.stream().map(Container::getId).toList();
			this.known = new Known(ids, List.of());
			return onEngineHost(this.engineHost.get(), ids).orElseThrow(
					() -> new IllegalStateException("the CPU reader on the engine's host has sent no reading"));
		}
		List<Path> forwarding = this.local ? processStats("docker-proxy") : List.of();
		long at = System.nanoTime();
		Map<String, Long> used = new LinkedHashMap<>();
		List<String> onHost = new ArrayList<>();
		for (Container container : containers) {
			String id = container.getId();
			OptionalLong nanos = ContainerCpu.onHost(id);
			if (nanos.isPresent()) {
				onHost.add(id);
			}
			else {
				nanos = remoteNanos(id);
			}
			nanos.ifPresent((value) -> used.put(id, value));
		}
		// What a re-read reads: the containers whose cgroups this host showed (one being
		// removed meanwhile does not count).
		this.known = new Known(this.local ? onHost : List.of(), forwarding);
		return reading(at, used, forwarding);
	}

	/**
	 * One reading of the counters the last {@link #read()} found on this host: the same
	 * containers and port forwarders, without asking the engine again. A container
	 * another class removed since is gone from the host: it is left out.
	 */
	private Reading readKnown(Known known) {
		long at = System.nanoTime();
		Map<String, Long> used = new LinkedHashMap<>();
		for (String id : known.containers()) {
			ContainerCpu.onHost(id).ifPresent((nanos) -> used.put(id, nanos));
		}
		return reading(at, used, known.forwarding());
	}

	/**
	 * A reading of {@code containers} taken at {@code at}, with the load generator's CPU,
	 * the machine's and the port forwarders'.
	 */
	private Reading reading(long at, Map<String, Long> containers, List<Path> forwarding) {
		long generator = generatorNanos();
		OptionalLong machine = this.local ? machineBusyNanos() : OptionalLong.empty();
		// The engine's port forwarding carries every request of the load: a process on
		// the machine, in no container, whose CPU the test's requests cost.
		long forwarded = nanosOf(forwarding);
		if (forwarded > 0) {
			containers.put(PORT_FORWARDING, forwarded);
		}
		return new Reading(at, containers, generator, machine);
	}

	/** What the last full reading found to read. */
	private volatile Known known = new Known(List.of(), List.of());

	/** The containers and port forwarders a reading reads. */
	private record Known(List<String> containers, List<Path> forwarding) {

	}

	/**
	 * A reading of what the last {@link #read()} found: the same containers and port
	 * forwarders, read from a few files of this host without asking the engine again, so
	 * that readings can be taken every tenth of a second at little cost; a container
	 * whose cgroup the host did not show is left out. Empty where the service's was not
	 * shown (a remote engine, where a container's CPU costs a process started in it, or a
	 * cgroup layout the kit does not know).
	 */
	Optional<Reading> readAgain() {
		Known known = this.known;
		if (!known.containers().contains(this.service.getContainerId())) {
			return Optional.empty();
		}
		return this.engineHost.isPresent() ? onEngineHost(this.engineHost.get(), known.containers())
				: Optional.of(readKnown(known));
	}

	/**
	 * The latest line of the reader on the engine's host, for {@code containers}, taken
	 * when it arrived; empty before the first.
	 */
	private Optional<Reading> onEngineHost(EngineHostCpu host, List<String> containers) {
		return host.latest().map((latest) -> {
			Map<String, Long> used = new LinkedHashMap<>();
			for (String id : containers) {
				Long nanos = latest.line().containers().get(id);
				if (nanos != null) {
					used.put(id, nanos);
				}
			}
			return new Reading(latest.at(), used, generatorNanos(), latest.line().machineBusyNanos());
		});
	}

	private static long generatorNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	/** Cores used on average between two readings, by whom. */
	public Step.Cpu between(Reading before, Reading after) {
		double seconds = (after.at() - before.at()) / 1e9;
		Map<String, Double> neighbours = new LinkedHashMap<>();
		double service = 0;
		Optional<Double> downstream = Optional.empty();
		double parts = 0;
		Map<String, String> names = names();
		for (Map.Entry<String, Long> container : after.containers().entrySet()) {
			Long was = before.containers().get(container.getKey());
			if (was == null) {
				continue;
			}
			double cores = Math.max(0, container.getValue() - was) / 1e9 / seconds;
			parts += cores;
			if (container.getKey().equals(this.service.getContainerId())) {
				service = cores;
			}
			else if (this.downstream != null && container.getKey().equals(this.downstream.getContainerId())) {
				downstream = Optional.of(cores);
			}
			else {
				String name = container.getKey().equals(PORT_FORWARDING) ? PORT_FORWARDING
						: names.getOrDefault(container.getKey(), container.getKey().substring(0, 12));
				neighbours.merge(name, cores, Double::sum);
			}
		}
		double generator = Math.max(0, after.generatorNanos() - before.generatorNanos()) / 1e9 / seconds;
		parts += generator;
		double machineUsed = (before.machineBusyNanos().isPresent() && after.machineBusyNanos().isPresent())
				? (after.machineBusyNanos().getAsLong() - before.machineBusyNanos().getAsLong()) / 1e9 / seconds
				: parts;
		return new Step.Cpu(service, limit(this.service), limited(this.service), downstream,
				(this.downstream != null) ? limit(this.downstream) : 0, neighbours, generator, this.machineCores,
				Math.min(this.machineCores, Math.max(machineUsed, parts)));
	}

	private double limit(GenericContainer<?> container) {
		Long nanoCpus = container.getContainerInfo().getHostConfig().getNanoCPUs();
		return (nanoCpus != null && nanoCpus > 0) ? nanoCpus / 1e9 : this.machineCores;
	}

	private static boolean limited(GenericContainer<?> container) {
		Long nanoCpus = container.getContainerInfo().getHostConfig().getNanoCPUs();
		return nanoCpus != null && nanoCpus > 0;
	}

	/** The running containers of this test JVM (its Testcontainers session). */
	private List<Container> testContainers() {
		return DockerClientFactory.lazyClient()
			.listContainersCmd()
			.withLabelFilter(Map.of(SESSION_LABEL, DockerClientFactory.SESSION_ID))
			.exec();
	}

	/** Each container of the test by the name a person knows it by. */
	private Map<String, String> names() {
		Map<String, String> names = new LinkedHashMap<>();
		for (Container container : testContainers()) {
			names.put(container.getId(), nameOf(container));
		}
		return names;
	}

	/**
	 * The kit's name label, else the first network alias the test gave it, else the
	 * image's name: {@code mysql}, {@code toxiproxy}. Read once per container.
	 */
	static String nameOf(Container container) {
		return NAMES.computeIfAbsent(container.getId(), (id) -> inspectName(id, container.getImage()));
	}

	private static final Map<String, String> NAMES = new ConcurrentHashMap<>();

	private static String inspectName(String id, String image) {
		try {
			return nameOf(DockerClientFactory.lazyClient().inspectContainerCmd(id).exec(), image);
		}
		catch (RuntimeException ex) {
			return nameOf(null, image);
		}
	}

	/**
	 * The name {@link #nameOf(Container)} gives a container of {@code image} from the
	 * engine's answer to its inspection ({@code null}: none).
	 */
	static String nameOf(InspectContainerResponse inspected, String image) {
		if (inspected != null) {
			Map<String, String> labels = (inspected.getConfig() != null) ? inspected.getConfig().getLabels() : null;
			if (labels != null && labels.containsKey(DockerHost.NAME_LABEL)) {
				return labels.get(DockerHost.NAME_LABEL);
			}
			if (inspected.getNetworkSettings() != null && inspected.getNetworkSettings().getNetworks() != null) {
				for (ContainerNetwork network : inspected.getNetworkSettings().getNetworks().values()) {
					// Testcontainers adds "tc-<random>" to every container on a network:
					// the test's own alias is the one a person knows.
					for (String alias : (network.getAliases() != null) ? network.getAliases() : List.<String>of()) {
						if (!inspected.getId().startsWith(alias) && !alias.startsWith("tc-")) {
							return alias;
						}
					}
				}
			}
		}
		String name = String.valueOf(image);
		String repository = name.contains(":") ? name.substring(0, name.lastIndexOf(':')) : name;
		return repository.substring(repository.lastIndexOf('/') + 1);
	}

	/**
	 * A container's CPU time so far as the engine tells it, where this host does not show
	 * its cgroup.
	 */
	private OptionalLong remoteNanos(String id) {
		try {
			return OptionalLong.of(this.remote.computeIfAbsent(id, ContainerCpu::byId).used().toNanos());
		}
		catch (RuntimeException ex) {
			return OptionalLong.empty();
		}
	}

	/** The key of the engine's port forwarding among a reading's containers. */
	private static final String PORT_FORWARDING = "port forwarding (docker-proxy)";

	/**
	 * The {@code /proc/<pid>/stat} files of this machine's processes named {@code name}.
	 */
	static List<Path> processStats(String name) {
		List<Path> stats = new ArrayList<>();
		try (var processes = Files.newDirectoryStream(Path.of("/proc"),
				(path) -> path.getFileName().toString().chars().allMatch(Character::isDigit))) {
			for (Path process : processes) {
				try {
					String stat = Files.readString(process.resolve("stat"));
					int open = stat.indexOf('(');
					int close = stat.lastIndexOf(')');
					if (open >= 0 && close > open && stat.substring(open + 1, close).equals(name)) {
						stats.add(process.resolve("stat"));
					}
				}
				catch (IOException | RuntimeException ex) {
					// a process that ended meanwhile
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
		return stats;
	}

	/**
	 * CPU time so far of the processes whose {@code stat} files these are (user and
	 * system ticks); 0 when there are none.
	 */
	static long nanosOf(List<Path> stats) {
		long ticks = 0;
		for (Path path : stats) {
			try {
				String stat = Files.readString(path);
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				// After the name: state is field 3, utime field 14, stime field 15.
				ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
			catch (IOException | RuntimeException ex) {
				// a process that ended meanwhile
			}
		}
		return Math.round(ticks / TICKS_PER_SECOND * 1e9);
	}

	/** Busy time of every core of this machine so far, from {@code /proc/stat}. */
	public static OptionalLong machineBusyNanos() {
		try {
			return parseProcStat(Files.readAllLines(PROC_STAT).get(0));
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
	}

	/**
	 * {@code cpu  user nice system idle iowait irq softirq steal …} → everything but idle
	 * and iowait, in nanoseconds.
	 */
	static OptionalLong parseProcStat(String line) {
		return HostCpuCounter.busyNanos(line);
	}

	/**
	 * The counters at one instant.
	 *
	 * @param at {@code System.nanoTime()} of the reading
	 * @param containers CPU nanoseconds so far of each container of the test, by id
	 * @param generatorNanos CPU nanoseconds so far of the test's JVM
	 * @param machineBusyNanos busy nanoseconds so far of the machine's cores, when the
	 * engine is local
	 */
	public record Reading(long at, Map<String, Long> containers, long generatorNanos, OptionalLong machineBusyNanos) {

	}

}
