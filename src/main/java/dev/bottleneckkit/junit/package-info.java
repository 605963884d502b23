/**
 * JUnit 5 integration: {@link dev.bottleneckkit.junit.Scenario} on a test class,
 * {@link dev.bottleneckkit.junit.ScenarioReport} as a test-method parameter for the HTML
 * and Markdown report.
 */
package dev.bottleneckkit.junit;
