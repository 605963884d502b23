package dev.bottleneckkit.sweep;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A team's own kind comes through {@link java.util.ServiceLoader}, as the kit's own do:
 * one class named once in {@code META-INF/services/dev.bottleneckkit.sweep.Kind}, known
 * to every sweep, a test's own declaration of the same words first.
 */
class KindTest {

	@Test
	void aKindOnTheClassPathIsKnownToEverySweep(@TempDir Path dir) throws IOException {
		registering(dir, Renderers.class, () -> {
			Resource.Own renderers = Sweep.of(URI.create("http://localhost:8080/label")).known().get(0);

			assertThat(renderers.words()).isEqualTo("renderers");
			assertThat(renderers.declaredBy()).isEqualTo("its kind Renderers");
			assertThat(renderers.knob().map((family) -> family.at(6, 3).name())).hasValue("renderers 6");
		});
	}

	@Test
	void theTestsOwnDeclarationOfTheSameWordsComesFirst(@TempDir Path dir) throws IOException {
		registering(dir, Renderers.class,
				() -> assertThat(Sweep.of(URI.create("http://localhost:8080/label"))
					.knowing(Resource.own("renderers").limit(3).waitingIn("com.example.Renderers.take"))
					.known()).extracting(Resource.Own::declaredBy).containsExactly("declared by the test"));
	}

	@Test
	void aKindThatCouldNeverNameItsResourceFailsInOneLineNamingIt(@TempDir Path dir) throws IOException {
		registering(dir, Blind.class,
				() -> assertThatIllegalStateException().isThrownBy(Sweep::registered)
					.withMessage("dev.bottleneckkit.sweep.KindTest$Blind: Resource.own(\"licences\") needs what shows"
							+ " it full: inUseFrom(meter) or waitingIn(frame)"));
	}

	@Test
	void withoutARegisteredKindNoneIsKnown() {
		assertThat(Sweep.registered()).isEmpty();
	}

	/** Runs {@code test} with {@code kind} registered on the thread's class loader. */
	private static void registering(Path dir, Class<? extends Kind> kind, Runnable test) throws IOException {
		Path services = Files.createDirectories(dir.resolve("META-INF/services"));
		Files.writeString(services.resolve(Kind.class.getName()), "# a team's kind\n" + kind.getName() + "\n");
		Thread thread = Thread.currentThread();
		ClassLoader before = thread.getContextClassLoader();
		try (URLClassLoader loader = new URLClassLoader(new URL[] { dir.toUri().toURL() }, before)) {
			thread.setContextClassLoader(loader);
			test.run();
		}
		finally {
			thread.setContextClassLoader(before);
		}
	}

	/** A team's renderers: where their waiters wait, and the property that sizes them. */
	public static final class Renderers implements Kind {

		@Override
		public Resource.Own resource() {
			return Resource.own("renderers")
				.waitingIn("com.example.stock.StockApplication.label")
				.turnedBy("stock.renderers");
		}

	}

	/** A kind that could never name its resource: a limit, nothing that shows it full. */
	public static final class Blind implements Kind {

		@Override
		public Resource.Own resource() {
			return Resource.own("licences").limit(4);
		}

	}

}
