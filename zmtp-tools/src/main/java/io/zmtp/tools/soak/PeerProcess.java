package io.zmtp.tools.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One life of the soak's peer: a separate process (a JVM running {@code zmtp soak-peer}, or Python with pyzmq running
 * the bundled {@code soak_peer.py}) that binds and serves until it is killed with SIGKILL. Its standard output is
 * read on a thread: {@code READY} once bound, and {@code R first last} for each run of sequence numbers a PULL peer
 * received, which goes into the ledger.
 */
final class PeerProcess {
    private final Process process;
    private final CountDownLatch ready = new CountDownLatch(1);

    private PeerProcess(Process process, SequenceLedger ledger) {
        this.process = process;
        Thread reader = new Thread(() -> read(process.getInputStream(), ledger), "soak-peer-output");
        reader.setDaemon(true);
        reader.start();
    }

    static PeerProcess start(List<String> command, SequenceLedger ledger) {
        try {
            return new PeerProcess(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start(),
                    ledger);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the soak peer " + command, e);
        }
    }

    /** The command for our own peer: this JVM's java and class path, running {@code zmtp soak-peer}. */
    static List<String> ours(String pattern, String endpoint) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.zmtp.tools.Zmtp");
        command.add("soak-peer");
        command.add(pattern);
        command.add(endpoint);
        return command;
    }

    /** The command for a libzmq peer: {@code python} (with pyzmq) running the bundled script. */
    static List<String> libzmq(String python, String pattern, String endpoint) {
        try (InputStream in = PeerProcess.class.getResourceAsStream("soak_peer.py")) {
            Path script = Files.createTempFile("soak_peer", ".py");
            script.toFile().deleteOnExit();
            Files.write(script, in.readAllBytes());
            return List.of(python, script.toString(), pattern, endpoint);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void read(InputStream out, SequenceLedger ledger) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.equals("READY")) {
                    ready.countDown();
                } else if (line.startsWith("R ")) {
                    String[] parts = line.split(" ");
                    ledger.record(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
                }
            }
        } catch (IOException e) {
            // The process was killed: what it printed before is in the ledger.
        }
    }

    /** Waits until the peer has bound; false if it did not within the time, or died. */
    boolean awaitReady(long millis) throws InterruptedException {
        return ready.await(millis, TimeUnit.MILLISECONDS) && process.isAlive();
    }

    /** SIGKILL, as a crash: no close, no linger. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }
}
