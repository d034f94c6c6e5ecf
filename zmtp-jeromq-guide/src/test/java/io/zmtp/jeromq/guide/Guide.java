package io.zmtp.jeromq.guide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** What the *IT share: the builds to run on, pairs of them, free ports, a work directory per run. */
final class Guide {
    private Guide() {}

    /** Each selected build. */
    static Stream<Implementation> implementations() {
        return Implementation.selected().stream();
    }

    /** Every ordered pair of selected builds (both the same, and each with the other), for two-sided tests. */
    static Stream<Arguments> pairs() {
        List<Arguments> out = new ArrayList<>();
        for (Implementation a : Implementation.selected()) {
            for (Implementation b : Implementation.selected()) {
                out.add(Arguments.of(a, b));
            }
        }
        return out.stream();
    }

    /** A port free on 127.0.0.1 now (the OS picks it; a program binds it a moment later). */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code target/guide-runs/<run>}: the child JVMs' working directory (relative ipc:// paths land there). */
    static Path workDir(String run) {
        return Path.of(JeromqBuild.property("zmtp.guide.workDir"), run);
    }
}
