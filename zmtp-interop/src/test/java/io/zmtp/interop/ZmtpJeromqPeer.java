package io.zmtp.interop;

import io.zmtp.testkit.TestTimeouts;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;

/**
 * A {@link SocketPeer} whose sockets are JeroMQ-API code on zmtp-jeromq: {@link JeromqApiPeerMain} (the JeroMQ
 * peer of the socket matrix, compiled against JeroMQ 0.6.0) in a child JVM whose class path is this JVM's with
 * JeroMQ's jars taken out and zmtp-jeromq put in.
 *
 * <p>Why our side is the child and not JeroMQ's: this module's tests already have JeroMQ in-process (the
 * {@code Jeromq*IT}, {@link SocketPeer.JeroMqPeer}), and both jars define {@code org.zeromq}, so zmtp-jeromq can only
 * run where JeroMQ is not. It also shows the stronger claim: the JeroMQ application's classes run as built, with only
 * the jar beside them changed. The zmtp-jeromq jar comes from the build (system property
 * {@value #JAR_PROPERTY}, set by the dependency plugin's {@code properties} goal); the child runs with Netty's leak
 * detector at paranoid, and its stderr (where Netty reports leaks) is kept for failure messages.
 */
final class ZmtpJeromqPeer extends SocketPeer {
    static final String JAR_PROPERTY = "zmtp.interop.zmtpJeromq";
    private static final String EOF = new String("<eof>");

    private final Process process;
    private final PrintStream stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final StringBuffer stderr = new StringBuffer();

    ZmtpJeromqPeer() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Dio.netty.leakDetection.level=paranoid");
        // JeroMqPeer shortens the handshake timeout to 500 ms against a JeroMQ 0.6.0 bug (see there). That bug is not
        // ours, and a fresh JVM's first CURVE handshake with a ZAP round trip can take longer on a loaded machine: the
        // child keeps JeroMQ's default, 30 s.
        command.add("-Dzmtp.interop.jeromqHandshakeIvl=30000");
        // The peer's own deadlines (SocketPeer's) grow as this JVM's do.
        command.add("-D" + TestTimeouts.SCALE_PROPERTY + "=" + TestTimeouts.scale());
        // More options for the child, e.g. -Dzmtp.interop.peerJvmArgs=-Dorg.slf4j.simpleLogger.log.io.zmtp=debug
        String extra = System.getProperty("zmtp.interop.peerJvmArgs", "").trim();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split(" +")));
        }
        command.add("-cp");
        command.add(classPath());
        command.add(JeromqApiPeerMain.class.getName());
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting " + command, e);
        }
        stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        pump(process.getInputStream(), stdout::add, () -> stdout.add(EOF));
        pump(process.getErrorStream(), line -> stderr.append(line).append('\n'), () -> {});
    }

    /** This JVM's class path without JeroMQ (and its jnacl), with zmtp-jeromq. */
    static String classPath() {
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null || !new File(jar).exists()) {
            throw new AssertionError("system property " + JAR_PROPERTY + " is " + jar + ": run the interop tests"
                    + " through Maven (./mvnw verify -pl zmtp-interop -am), which builds zmtp-jeromq and sets it");
        }
        List<String> entries = new ArrayList<>();
        entries.add(jar);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (!name.startsWith("jeromq-") && !name.startsWith("jnacl-")) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void pump(InputStream in, Consumer<String> sink, Runnable atEnd) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                // the process ended
            } finally {
                atEnd.run();
            }
        }, "zmtp-jeromq-peer-output");
        t.setDaemon(true);
        t.start();
    }

    @Override
    String version() {
        return "zmtp-jeromq (JeroMQ 0.6.0's API on netty-zmtp)";
    }

    @Override
    void submit(String command) {
        stdin.println(command);
    }

    @Override
    String reply(Duration timeout) {
        try {
            String line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError("zmtp-jeromq peer: no answer within " + timeout + "; stderr:\n" + stderr);
            }
            if (line == EOF) {
                stdout.add(EOF);
                throw new AssertionError("zmtp-jeromq peer ended; stderr:\n" + stderr);
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** What the child wrote to stderr so far. */
    String stderr() {
        return stderr.toString();
    }

    @Override
    public void close() {
        try {
            stdin.println("exit");
            if (!process.waitFor(scaledSeconds(15), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        if (stderr.indexOf("LEAK:") >= 0) {
            throw new AssertionError("zmtp-jeromq peer reported Netty buffer leaks:\n" + stderr);
        }
    }
}
