package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs libzmq peers written in Python (pyzmq, whose wheel bundles libzmq) from {@code src/test/python}.
 *
 * <p>The Python comes from the venv the build creates (system property {@value #PYTHON_PROPERTY}). When it is
 * missing the calling test fails rather than skips: a silently skipped interop suite looks like a passing one.
 */
public final class PyZmq {

    public static final String PYTHON_PROPERTY = "zmtp.interop.python";
    public static final String SCRIPTS_PROPERTY = "zmtp.interop.scripts";

    private static final Logger LOG = LoggerFactory.getLogger(PyZmq.class);
    private static final Duration DEFAULT_TIMEOUT = scaled(Duration.ofSeconds(10));
    private static volatile Versions versions;

    private PyZmq() {}

    /** Versions reported by the venv: {@code zmq.zmq_version()} and {@code zmq.__version__}. */
    public record Versions(String libzmq, String pyzmq) {}

    /** The venv's python executable; fails the test with setup instructions if it is not there. */
    public static Path python() {
        // The default lets a test run from an IDE whose working directory is the module.
        Path python = Path.of(System.getProperty(PYTHON_PROPERTY, "target/venv/bin/python")).toAbsolutePath();
        if (!Files.isExecutable(python)) {
            throw new AssertionError("No Python with pyzmq at " + python + " (system property " + PYTHON_PROPERTY
                    + "). Create it with `./mvnw -pl zmtp-interop -am verify`, which builds zmtp-interop/target/venv,"
                    + " or by hand: `python3 -m venv zmtp-interop/target/venv && zmtp-interop/target/venv/bin/pip"
                    + " install -r zmtp-interop/src/test/python/requirements.txt`, then pass -D" + PYTHON_PROPERTY
                    + "=<venv>/bin/python.");
        }
        return python;
    }

    public static Path script(String name) {
        Path script = Path.of(System.getProperty(SCRIPTS_PROPERTY, "src/test/python"), name).toAbsolutePath();
        if (!Files.isRegularFile(script)) {
            throw new AssertionError("No Python peer script " + script);
        }
        return script;
    }

    /** Asks the venv once per JVM and logs the answer, so every interop run records what it tested against. */
    public static Versions versions() {
        Versions v = versions;
        if (v == null) {
            try (Peer peer = run(List.of("-c", "import zmq; print(zmq.zmq_version()); print(zmq.__version__)"))) {
                v = new Versions(peer.readLine(), peer.readLine());
                peer.awaitExit(DEFAULT_TIMEOUT);
            }
            LOG.info("Interop peer: pyzmq {} with libzmq {} ({})", v.pyzmq(), v.libzmq(), python());
            versions = v;
        }
        return v;
    }

    /** Starts {@code src/test/python/<script>} with arguments; close the returned peer to stop it. */
    public static Peer start(String script, String... args) {
        return start(false, script, args);
    }

    /** As {@link #start(String, String...)}, but the peer's stdin stays open for {@link Peer#writeLine}. */
    public static Peer startInteractive(String script, String... args) {
        return start(true, script, args);
    }

    private static Peer start(boolean interactive, String script, String... args) {
        versions();
        List<String> argv = new ArrayList<>();
        argv.add(script(script).toString());
        argv.addAll(List.of(args));
        return run(argv, interactive);
    }

    private static Peer run(List<String> args) {
        return run(args, false);
    }

    private static Peer run(List<String> args, boolean interactive) {
        List<String> command = new ArrayList<>();
        command.add(python().toString());
        // Unbuffered, so each line reaches readLine() when the peer prints it; -B: no __pycache__ in src/test.
        command.add("-u");
        command.add("-B");
        command.addAll(args);
        try {
            return new Peer(String.join(" ", command), new ProcessBuilder(command).start(), interactive);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /** A running Python peer; its stdout is read line by line, its stderr kept for failure messages. */
    public static final class Peer implements AutoCloseable {
        // Compared by identity, so no line the peer prints can be mistaken for it.
        @SuppressWarnings("StringOperationCanBeSimplified")
        private static final String EOF = new String("<eof>");

        private final String command;
        private final Process process;
        private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
        private final StringBuffer stderr = new StringBuffer();

        private Peer(String command, Process process, boolean interactive) {
            this.command = command;
            this.process = process;
            pump(process.getInputStream(), line -> stdout.add(line), () -> stdout.add(EOF));
            pump(process.getErrorStream(), line -> stderr.append(line).append('\n'), () -> {});
            if (!interactive) {
                closeStdin();
            }
        }

        /** Sends one line to an interactive peer's stdin. */
        public void writeLine(String line) {
            try {
                process.getOutputStream().write((line + "\n").getBytes(UTF_8));
                process.getOutputStream().flush();
            } catch (IOException e) {
                throw new AssertionError("Cannot write to `" + command + "`" + describe(), e);
            }
        }

        private void closeStdin() {
            try {
                // Peers that read nothing from stdin; closing it gives one that tries EOF instead of a hang.
                process.getOutputStream().close();
            } catch (IOException ignored) {
                // Already gone with the process.
            }
        }

        /** The peer's process id (e.g. to SIGSTOP it). */
        public long pid() {
            return process.pid();
        }

        /** What the peer wrote to stderr so far, for failure messages. */
        public String stderr() {
            return stderr.toString().strip();
        }

        public String readLine() {
            return readLine(DEFAULT_TIMEOUT);
        }

        /** The next stdout line; fails if none comes within the timeout or the peer exits first. */
        public String readLine(Duration timeout) {
            String line;
            try {
                line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for " + command, e);
            }
            if (line == null) {
                throw new AssertionError("No output from `" + command + "` within " + timeout + describe());
            }
            if (line == EOF) {
                stdout.add(EOF);
                throw new AssertionError("`" + command + "` closed its output" + describe());
            }
            return line;
        }

        /** Waits for the peer to exit by itself and fails unless it exited with status 0. */
        public void awaitExit(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("`" + command + "` still running after " + timeout + describe());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for " + command, e);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("`" + command + "` exited with " + process.exitValue() + describe());
            }
        }

        private String describe() {
            String err = stderr.toString().strip();
            return err.isEmpty() ? "" : "; its stderr:\n" + err;
        }

        @Override
        public void close() {
            closeStdin();
            process.destroy();
            try {
                if (!process.waitFor(scaledSeconds(5), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(scaledSeconds(5), TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }

        private static void pump(InputStream in, Consumer<String> onLine, Runnable onEof) {
            Thread t = new Thread(() -> {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8))) {
                    for (String line; (line = reader.readLine()) != null; ) {
                        onLine.accept(line);
                    }
                } catch (IOException ignored) {
                    // The process was destroyed; what it printed so far is already kept.
                } finally {
                    onEof.run();
                }
            }, "pyzmq-peer-output");
            t.setDaemon(true);
            t.start();
        }
    }
}
