package io.zmtp.socket;

import io.zmtp.testkit.TestTimeouts;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A {@code main} of the test class path run to its end in a JVM of its own (what a program sees: its own threads,
 * its own class loading, its own exit), with its output (stdout and stderr together) for the test to read.
 */
final class ChildJvm {
    /** What the child did: whether it ended by itself within the (scaled) wait, its exit status, its output. */
    record Result(boolean exited, int exitValue, List<String> output) {
    }

    private ChildJvm() {
    }

    /** Runs {@code main} with {@code jvmOptions} and {@code args}; waits up to 30 s (scaled) for it to end. */
    static Result run(List<String> jvmOptions, Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            out = r.lines().collect(Collectors.toList());
        }
        boolean exited = p.waitFor(TestTimeouts.scaledSeconds(30), TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        return new Result(exited, exited ? p.exitValue() : -1, out);
    }
}
