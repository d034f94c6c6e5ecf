package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpVersion;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A connecting pipe across reconnections, on embedded channels. */
class PipeConnectionTest {
    private static final PipeListener LISTENER = new CountingPipeListener();

    private static ZmtpHandshakeSuccessEvent handshake() {
        return new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL", ZmtpMetadata.EMPTY, null);
    }

    @Test
    void shouldNotReplayOnTheNextConnectionASubscriptionChangeQueuedForALostOne() {
        Pipe pipe = new Pipe(LISTENER, true, "test://", 10, 10);
        EmbeddedChannel first = new EmbeddedChannel();
        pipe.onHandshake(first, handshake());
        pipe.writeToConnection(ZmtpCommand.subscribe(Unpooled.copiedBuffer("stale", StandardCharsets.US_ASCII)));
        // The connection drops before the drain task ran.
        pipe.onInactive(first);
        first.close();

        EmbeddedChannel second = new EmbeddedChannel();
        pipe.onHandshake(second, handshake());
        second.runPendingTasks();
        first.runPendingTasks();
        assertThat((Object) second.readOutbound()).isNull();
        assertThat(pipe.outDepth()).isZero();

        // Messages, unlike subscription changes, still wait for the next connection.
        assertThat(pipe.offer(ZmtpMessage.of("kept"))).isTrue();
        second.runPendingTasks();
        ZmtpMessage m = second.readOutbound();
        assertThat(m.frameString(0)).isEqualTo("kept");
        m.release();
        pipe.terminate();
        assertThat(first.finishAndReleaseAll()).isFalse();
        second.finishAndReleaseAll();
    }

    @Test
    void shouldDropASubscriptionChangeAtOnceWhenNoConnectionIsUp() {
        Pipe pipe = new Pipe(LISTENER, true, "test://", 10, 10);
        ZmtpCommand cancel = ZmtpCommand.cancel(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII));
        pipe.writeToConnection(cancel);
        assertThat(cancel.refCnt()).isZero();
        assertThat(pipe.outDepth()).isZero();
    }
}
