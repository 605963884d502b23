package dev.bottleneckkit.lab;

/**
 * Which kind of thread served a request: reported in every reply, so a test can see that
 * the {@code spring.threads.virtual.enabled} knob reached Tomcat.
 */
public record Threads(String name, boolean virtual) {

	public static Threads current() {
		Thread thread = Thread.currentThread();
		return new Threads(thread.getName(), thread.isVirtual());
	}

}
