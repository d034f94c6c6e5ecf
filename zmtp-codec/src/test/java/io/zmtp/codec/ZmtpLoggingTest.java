package io.zmtp.codec;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.rawGreeting;
import static io.zmtp.codec.Wire.ready;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a failed connection logs: health checks (connect, close) and handshake timeouts at DEBUG; other failures at
 * most one WARN per minute per handler class, the rest at DEBUG. Netty logs through java.util.logging here (no
 * SLF4J on the codec's test class path), so a JUL handler sees the levels.
 */
class ZmtpLoggingTest {
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final Logger[] loggers = {Logger.getLogger(ZmtpHandshakeHandler.class.getName()),
        Logger.getLogger(ZmtpFrameDecoder.class.getName())};
    private final Level[] levels = new Level[loggers.length];

    @BeforeEach
    void capture() {
        assertThat(InternalLoggerFactory.getDefaultFactory()).isInstanceOf(JdkLoggerFactory.class);
        for (int i = 0; i < loggers.length; i++) {
            levels[i] = loggers[i].getLevel();
            loggers[i].setLevel(Level.ALL);
            loggers[i].addHandler(capture);
        }
        ZmtpHandshakeHandler.WARNINGS.reset();
        ZmtpFrameDecoder.WARNINGS.reset();
    }

    @AfterEach
    void restore() {
        for (int i = 0; i < loggers.length; i++) {
            loggers[i].removeHandler(capture);
            loggers[i].setLevel(levels[i]);
        }
    }

    /** Levels of what {@code source} logged about failures (the handler's "handshake done" lines left out). */
    private List<Level> levels(Class<?> source) {
        return records.stream()
                .filter(r -> r.getLoggerName().equals(source.getName()) && !r.getMessage().contains("handshake done"))
                .map(LogRecord::getLevel)
                .collect(Collectors.toList());
    }

    @Test
    void shouldLogHealthCheckConnectThenCloseAtDebug() {
        for (int i = 0; i < 3; i++) {
            try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
                p.channel.close();
                assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.CONNECTION_CLOSED);
            }
        }
        assertThat(levels(ZmtpHandshakeHandler.class)).containsExactly(Level.FINE, Level.FINE, Level.FINE);
    }

    @Test
    void shouldLogHandshakeTimeoutAtDebug() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).handshakeTimeoutMillis(100).build())) {
            p.advance(100);
            assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.TIMEOUT);
        }
        assertThat(levels(ZmtpHandshakeHandler.class)).containsExactly(Level.FINE);
    }

    @Test
    void shouldWarnOnceForRepeatedIncompatiblePeersAndLogTheRestAtDebug() {
        for (int i = 0; i < 5; i++) {
            try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
                p.feed(rawGreeting(1), ready("Socket-Type", "PUB"));
                assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE);
            }
        }
        assertThat(levels(ZmtpHandshakeHandler.class))
                .containsExactly(Level.WARNING, Level.FINE, Level.FINE, Level.FINE, Level.FINE);
        assertThat(records.get(0).getMessage()).contains("INCOMPATIBLE_SOCKET_TYPE");
    }

    @Test
    void shouldWarnOnceForRepeatedProtocolErrorsAfterTheHandshake() {
        for (int i = 0; i < 3; i++) {
            try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
                p.feed(hex("08 00"));
                assertThat(p.protocolError()).isNotNull();
            }
        }
        assertThat(levels(ZmtpFrameDecoder.class)).containsExactly(Level.WARNING, Level.FINE, Level.FINE);
    }
}
