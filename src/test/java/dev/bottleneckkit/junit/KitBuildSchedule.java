package dev.bottleneckkit.junit;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The kit's own build asks for the suite's schedule and time budget for all its tests,
 * not only the {@code @Scenario} classes: its unit tests' loads and its other integration
 * tests' container starts take turns too. Registered for this tree's tests only (its
 * {@code META-INF/services}), and on only where the build sets
 * {@code -Dbottleneck.schedule=shared}.
 */
public class KitBuildSchedule implements LauncherSessionListener {

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		if (Scenario.Extension.SHARED.equals(System.getProperty(Scenario.Extension.SCHEDULE))) {
			SuiteHook.install("-D" + Scenario.Extension.SCHEDULE + "=" + Scenario.Extension.SHARED);
		}
	}

}
