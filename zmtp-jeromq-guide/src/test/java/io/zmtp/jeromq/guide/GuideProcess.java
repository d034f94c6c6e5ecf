package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One role of a program, its {@code main} run in a child JVM on one {@link Implementation}, with its output
 * (stdout and stderr, merged) collected line by line.
 *
 * <p>Why child JVMs: the JeroMQ build can only run in a JVM without zmtp-jeromq (both are {@code org.zeromq}),
 * and running both builds the same way makes each test the same for both. The child runs with assertions on (the
 * Guide's programs assert on what they receive; JeroMQ's own {@code zmq.*} asserts stay off, as JeroMQ runs in
 * production) and, on zmtp-jeromq, under {@link LeakReportingMain} with the leak detector at paranoid: a "LEAK:"
 * line fails the test when the process is closed.
 */
final class GuideProcess implements AutoCloseable {
    private static final Duration STOP_TIMEOUT = scaled(Duration.ofSeconds(20));

    final String name;
    private final Process process;
    private final Thread reader;
    private final List<String> lines = new ArrayList<>();

    private GuideProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.reader = new Thread(this::readOutput, "output-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args} on {@code impl}, in {@code workDir} (created if missing). */
    static GuideProcess start(Implementation impl, Path workDir, String name, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-ea");
        command.add("-da:zmq...");
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(impl.classPath());
        if (impl == Implementation.ZMTP_JEROMQ) {
            command.add("-Dio.netty.leakDetection.level=paranoid");
            command.add("-Dio.netty.leakDetection.targetRecords=32");
            command.add(LeakReportingMain.class.getName());
        }
        command.add(mainClass);
        command.addAll(List.of(args));
        try {
            Files.createDirectories(workDir);
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
            return new GuideProcess(name + "@" + impl, p);
        } catch (IOException e) {
            throw new UncheckedIOException("starting " + name, e);
        }
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone; what it printed is kept
        }
    }

    /** Everything printed so far. */
    List<String> lines() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    /** How many lines printed so far match. */
    long count(Predicate<String> match) {
        return lines().stream().filter(match).count();
    }

    /** Waits until a line matches, and returns it; fails with the output after {@code timeout}. */
    String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            while (true) {
                for (String line : lines) {
                    if (match.test(line)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError(name + ": no matching line within " + timeout + "; output:\n" + output());
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** Waits for the process to end by itself and returns its exit code; fails with the output after a timeout. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not end within " + timeout + "; output:\n" + output());
        }
        reader.join(STOP_TIMEOUT.toMillis());
        return process.exitValue();
    }

    /** Waits for a clean end (exit code 0), failing with the output otherwise. */
    void awaitSuccess(Duration timeout) throws InterruptedException {
        int code = awaitExit(timeout);
        if (code != 0) {
            throw new AssertionError(name + " exited with " + code + "; output:\n" + output());
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The output so far, for failure messages. */
    String output() {
        return String.join("\n", lines());
    }

    /** Ends the process if it runs (SIGTERM, then SIGKILL) and fails on a leak it reported. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        reader.join(STOP_TIMEOUT.toMillis());
        List<String> leaks = lines().stream().filter(l -> l.contains("LEAK:")).toList();
        if (!leaks.isEmpty()) {
            throw new AssertionError(name + " reported Netty buffer leaks; output:\n" + output());
        }
    }
}
