package dev.bottleneckkit.sweep.internal.analysis;

import dev.bottleneckkit.sweep.internal.read.Carriers;

/**
 * The thresholds the analysis decides by, in one place: when a model agrees with the
 * ceiling, when a step is at the knee, when the cores, a pool, a lock or the carriers
 * count as full, and when a confirmation's ceiling moved.
 */
public final class AnalysisPolicy {

	/**
	 * A resource names the cap only when its model (limit / hold) and the measured
	 * ceiling lie within this share of each other, the larger over the smaller
	 * ({@code Verdict.Capped.modelError()}); otherwise it is a candidate the verdict
	 * lists.
	 */
	public static final double MODEL_AGREEMENT = 0.25;

	/**
	 * A step whose throughput reaches this share of the ceiling is at the knee.
	 */
	public static final double KNEE_SHARE = 0.9;

	/**
	 * A container, or the machine, at this share of its cores or more is CPU-bound.
	 */
	public static final double CPU_SATURATED = 0.85;

	/**
	 * Steps this close to the fullest share of the cores count as full as it: the
	 * readings' own noise.
	 */
	public static final double FULLEST = 0.05;

	/**
	 * The load generator's share of the machine above which the verdict says it matters.
	 */
	public static final double GENERATOR_NOTE = 0.15;

	/**
	 * Cores other processes take at the cap from which the cores they left are no fixed
	 * figure: a neighbour at the same priority yields a share of its core to each thread
	 * the service adds.
	 */
	static final double NEIGHBOUR = 0.25;

	/**
	 * A lock is a crowd when at least this share of the request threads in a dump wait
	 * for it.
	 */
	public static final double LOCK_CROWD = 0.5;

	/**
	 * Carriers count as a candidate when pinned threads held at least this many of them
	 * on average.
	 */
	public static final double PINNED_CARRIERS = 0.5;

	/**
	 * A pool full in at least this share of the step's readings is full all the time.
	 */
	static final double ALWAYS_FULL = 0.8;

	/**
	 * A ceiling that rose or fell by less than this share did not move.
	 */
	public static final int ROSE_PERCENT = 15;

	private AnalysisPolicy() {
	}

}
