package io.zmtp.interop;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link SocketMatrix}: every compatible pair, our socket against a libzmq (pyzmq) one, either side binding. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketMatrixLibzmqIT {
    private static final Logger LOG = LoggerFactory.getLogger(SocketMatrixLibzmqIT.class);

    @BeforeAll
    static void logPeer() {
        try (SocketPeer peer = SocketPeer.Kind.LIBZMQ.start()) {
            LOG.info("Socket matrix against {}", peer.version());
        }
    }

    static Stream<SocketMatrix.Case> cases() {
        return SocketMatrix.cases(SocketPeer.Kind.LIBZMQ);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void pair(SocketMatrix.Case c) {
        SocketMatrix.run(c);
    }
}
