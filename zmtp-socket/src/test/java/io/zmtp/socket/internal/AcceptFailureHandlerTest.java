package io.zmtp.socket.internal;

import io.netty.channel.embedded.EmbeddedChannel;
import io.zmtp.socket.SocketTestSupport;
import io.zmtp.socket.ZmtpSocketEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class AcceptFailureHandlerTest {

    /** What Netty's acceptor passes on when accept(2) fails reaches the monitor as libzmq's ACCEPT_FAILED. */
    @Test
    void shouldReportAFailedAcceptAsAMonitorEventAndKeepTheListenerOpen() throws Exception {
        try (EmbeddedPeers peers = new EmbeddedPeers()) {
            PullSocket pull = peers.socket(new PullSocket(peers.context));
            List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
            pull.addMonitor(events::add);
            EmbeddedChannel listener = new EmbeddedChannel(new AcceptFailureHandler(pull, "tcp://127.0.0.1:5555"));
            listener.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Too many open files"));
            SocketTestSupport.eventually(() -> !events.isEmpty());
            assertThat(events).hasSize(1);
            ConnectionEvent e = events.get(0);
            assertThat(e.type()).isEqualTo(ZmtpSocketEvent.Type.ACCEPT_FAILED);
            assertThat(e.endpoint()).isEqualTo("tcp://127.0.0.1:5555");
            assertThat(e.cause()).hasMessageContaining("Too many open files");
            assertThat(LibzmqMonitor.number(e)).isEqualTo(0x0040);
            assertThat(LibzmqMonitor.value(e)).as("EMFILE").isEqualTo(24);
            assertThat(listener.isOpen()).isTrue();
            listener.checkException();
            listener.finishAndReleaseAll();
        }
    }
}
