package io.zmtp.jeromq.guide;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * The programs' sources ({@code src/main/java}) compiled against JeroMQ 0.6.0's own jar, with the JDK's compiler,
 * into {@code target/guide-on-jeromq}: the same files this module compiles against zmtp-jeromq.
 *
 * <p>Why javax.tools and not a second Maven compiler execution: the compiler plugin takes its class path from the
 * module's dependencies, where zmtp-jeromq is and JeroMQ cannot be (both define {@code org.zeromq}); here the class
 * path is exactly JeroMQ's jars (copied to {@code target/jeromq-lib} by the dependency plugin, on no class path of
 * the module), so a program that used anything but JeroMQ's API, or zmtp-jeromq's, fails to build. Each test JVM
 * compiles once (a few seconds).
 */
final class JeromqBuild {
    private static Result result;

    private JeromqBuild() {}

    /** What the compiler said, and where the classes are. */
    record Result(boolean success, List<String> errors, Path classes, List<Path> sources) {}

    /** Compiles once per JVM; later calls return the first result. */
    static synchronized Result compile() {
        if (result == null) {
            result = doCompile();
        }
        return result;
    }

    /** The class path of the JeroMQ build of the programs: its classes and JeroMQ's jars. Fails if it didn't build. */
    static String classPath() {
        Result r = compile();
        if (!r.success()) {
            throw new AssertionError("the programs don't build against JeroMQ 0.6.0:\n"
                    + String.join("\n", r.errors()));
        }
        List<String> entries = new ArrayList<>();
        entries.add(r.classes().toString());
        jeromqJars().forEach(jar -> entries.add(jar.toString()));
        return String.join(File.pathSeparator, entries);
    }

    /** JeroMQ 0.6.0 and its dependency, as the build copied them. */
    static List<Path> jeromqJars() {
        Path lib = Path.of(property("zmtp.guide.jeromqLib"));
        try (Stream<Path> files = Files.list(lib)) {
            List<Path> jars = files.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
            if (jars.stream().noneMatch(p -> p.getFileName().toString().startsWith("jeromq-0.6.0"))) {
                throw new AssertionError("no jeromq-0.6.0.jar in " + lib + ": run the build through Maven ("
                        + "./mvnw verify -pl zmtp-jeromq-guide -am), whose dependency plugin copies it there");
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException("JeroMQ's jars in " + lib + " (copied by the Maven build)", e);
        }
    }

    /** Every .java file under the programs' source root. */
    static List<Path> sources() {
        try (Stream<Path> files = Files.walk(Path.of(property("zmtp.guide.sources")))) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Result doCompile() {
        Path out = Path.of(property("zmtp.guide.jeromqClasses"));
        deleteTree(out);
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> sources = sources();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new AssertionError("no system Java compiler: run the tests on a JDK, not a JRE");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            files.setLocationFromPaths(StandardLocation.CLASS_PATH, jeromqJars());
            files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(out));
            // --release 17 as the module's own build; -implicit:none so only these sources produce classes.
            List<String> options = List.of("--release", "17", "-implicit:none", "-proc:none");
            boolean ok = javac.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                    .collect(Collectors.toList());
            return new Result(ok, errors, out, sources);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new AssertionError("system property " + name + " is not set: run the tests through Maven"
                    + " (zmtp-jeromq-guide's pom sets it)");
        }
        return value;
    }
}
