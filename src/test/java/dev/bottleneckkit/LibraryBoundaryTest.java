package dev.bottleneckkit;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.bottleneckkit.internal.RunHook;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user touches leads nowhere else: no public or protected signature of a type in
 * an API package (every package of the library but {@code internal}) names a type a user
 * cannot use, one of {@code internal} or one that is not public; and no scenario a user
 * copies (the lab's scenarios, the stock services' tests, the README's code) imports
 * {@code internal}. {@code internal} stays public, as Resilience4j's and AssertJ's do, so
 * that the kit's own packages can share it.
 */
class LibraryBoundaryTest {

	private static final Path LIBRARY = Path.of("src/main/java");

	/** Where the code users copy lives. */
	private static final List<Path> COPIED = List.of(Path.of("src/test/java/dev/bottleneckkit/scenarios"),
			Path.of(".ci/stock-service"), Path.of("README.md"), Path.of("docs/guards.md"),
			Path.of("docs/scenarios.md"));

	private static final Pattern INTERNAL_IMPORT = Pattern
		.compile("import (static )?dev\\.bottleneckkit\\.(\\w+\\.)*internal\\.");

	@Test
	void noApiSignatureExposesATypeOutsideTheApi() throws Exception {
		List<String> exposed = new ArrayList<>();
		for (Class<?> type : apiTypes()) {
			exposed.addAll(exposedNonApiTypes(type));
		}

		assertThat(exposed).as("API signatures that hand a user a type of internal, or one that is not public")
			.isEmpty();
	}

	@Test
	void theCheckFindsATypeOutsideTheApiInASignature() {
		assertThat(exposedNonApiTypes(Leaky.class)).containsExactlyInAnyOrder(
				"LibraryBoundaryTest.Leaky.hook() returns dev.bottleneckkit.internal.RunHook",
				"LibraryBoundaryTest.Leaky.hidden(...) takes dev.bottleneckkit.LibraryBoundaryTest$Hidden",
				"LibraryBoundaryTest.Leaky.windows() returns dev.bottleneckkit.internal.RunHook$Window");
	}

	@Test
	void noCopiedScenarioImportsInternal() throws IOException {
		List<String> imports = new ArrayList<>();
		for (Path root : COPIED) {
			try (Stream<Path> files = Files.isDirectory(root) ? Files.walk(root) : Stream.of(root)) {
				for (Path file : files.filter((path) -> path.toString().matches(".*\\.(java|md)$")).toList()) {
					List<String> lines = Files.readAllLines(file);
					for (int i = 0; i < lines.size(); i++) {
						if (INTERNAL_IMPORT.matcher(lines.get(i).trim()).lookingAt()) {
							imports.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
						}
					}
				}
			}
		}

		assertThat(imports).as("code users copy that imports the kit's machinery: use the API, or add to it").isEmpty();
	}

	/** The library's public types outside {@code internal}, nested ones included. */
	private static List<Class<?>> apiTypes() throws IOException, ClassNotFoundException {
		List<Class<?>> types = new ArrayList<>();
		try (Stream<Path> files = Files.walk(LIBRARY)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
				String name = LIBRARY.relativize(file).toString().replace(".java", "").replace('/', '.');
				if (name.endsWith("package-info") || !isApiPackage(name)) {
					continue;
				}
				addPublic(Class.forName(name), types);
			}
		}
		return types;
	}

	private static void addPublic(Class<?> type, List<Class<?>> types) {
		if (!Modifier.isPublic(type.getModifiers())) {
			return;
		}
		types.add(type);
		for (Class<?> nested : type.getDeclaredClasses()) {
			addPublic(nested, types);
		}
	}

	private static boolean isApiPackage(String className) {
		return className.startsWith("dev.bottleneckkit.") && !className.contains(".internal.");
	}

	/**
	 * Each public or protected signature of {@code type} that names a type outside the
	 * API: its supertypes, its fields, its constructors' and methods' parameters, returns
	 * and exceptions, with their type arguments and bounds.
	 */
	static List<String> exposedNonApiTypes(Class<?> type) {
		Set<String> exposed = new TreeSet<>();
		String owner = type.getName().replace(type.getPackageName() + ".", "").replace('$', '.');
		check(type.getGenericSuperclass(), owner + " extends", exposed);
		for (Type implemented : type.getGenericInterfaces()) {
			check(implemented, owner + " implements", exposed);
		}
		for (TypeVariable<?> variable : type.getTypeParameters()) {
			for (Type bound : variable.getBounds()) {
				check(bound, owner + "<" + variable.getName() + "> is bound by", exposed);
			}
		}
		for (Field field : type.getDeclaredFields()) {
			if (visible(field) && !field.isSynthetic()) {
				check(field.getGenericType(), owner + "." + field.getName() + " is", exposed);
			}
		}
		for (Constructor<?> constructor : type.getDeclaredConstructors()) {
			if (visible(constructor) && !constructor.isSynthetic()) {
				for (Type parameter : constructor.getGenericParameterTypes()) {
					check(parameter, owner + "(...) takes", exposed);
				}
			}
		}
		for (Method method : type.getDeclaredMethods()) {
			if (!visible(method) || method.isSynthetic() || method.isBridge()) {
				continue;
			}
			String where = owner + "." + method.getName();
			check(method.getGenericReturnType(), where + "() returns", exposed);
			for (Type parameter : method.getGenericParameterTypes()) {
				check(parameter, where + "(...) takes", exposed);
			}
			for (Type thrown : method.getGenericExceptionTypes()) {
				check(thrown, where + "() throws", exposed);
			}
		}
		return List.copyOf(exposed);
	}

	private static boolean visible(Member member) {
		return Modifier.isPublic(member.getModifiers()) || Modifier.isProtected(member.getModifiers());
	}

	private static void check(Type type, String where, Set<String> exposed) {
		check(type, where, exposed, new HashSet<>());
	}

	private static void check(Type type, String where, Set<String> exposed, Set<Type> seen) {
		if (type == null || !seen.add(type)) {
			return;
		}
		if (type instanceof Class<?> plain) {
			Class<?> element = plain;
			while (element.isArray()) {
				element = element.getComponentType();
			}
			if (!api(element)) {
				exposed.add(where + " " + element.getName());
			}
		}
		else if (type instanceof ParameterizedType parameterized) {
			check(parameterized.getRawType(), where, exposed, seen);
			for (Type argument : parameterized.getActualTypeArguments()) {
				check(argument, where, exposed, seen);
			}
		}
		else if (type instanceof WildcardType wildcard) {
			for (Type bound : wildcard.getUpperBounds()) {
				check(bound, where, exposed, seen);
			}
			for (Type bound : wildcard.getLowerBounds()) {
				check(bound, where, exposed, seen);
			}
		}
		else if (type instanceof TypeVariable<?> variable) {
			for (Type bound : variable.getBounds()) {
				check(bound, where, exposed, seen);
			}
		}
		else if (type instanceof GenericArrayType array) {
			check(array.getGenericComponentType(), where, exposed, seen);
		}
	}

	/**
	 * Whether a user may use {@code type}: anything outside the kit, and of the kit a
	 * public type (its enclosing types public too) outside {@code internal}.
	 */
	private static boolean api(Class<?> type) {
		if (type.isPrimitive() || !type.getName().startsWith("dev.bottleneckkit.")) {
			return true;
		}
		for (Class<?> enclosing = type; enclosing != null; enclosing = enclosing.getEnclosingClass()) {
			if (!Modifier.isPublic(enclosing.getModifiers())) {
				return false;
			}
		}
		return isApiPackage(type.getName());
	}

	/**
	 * A type of this test, public, with signatures that leak: what the check must find.
	 */
	public static final class Leaky {

		public RunHook hook() {
			return RunHook.NONE;
		}

		public List<RunHook.Window> windows() {
			return List.of();
		}

		protected void hidden(Hidden hidden) {
		}

		void packagePrivateIsNoApi(Hidden hidden) {
		}

	}

	/** Not public: no API may hand it out. */
	static final class Hidden {

	}

}
