package io.zmtp.codec;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

class ZmtpBatchFlusherTest {

    @Test
    void shouldCoalesceFlushRequestsIntoOnePerEventLoopRun() {
        AtomicInteger flushes = new AtomicInteger();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.incrementAndGet();
                ctx.flush();
            }
        });
        try {
            ZmtpBatchFlusher flusher = new ZmtpBatchFlusher(ch);
            // EmbeddedChannel runs queued tasks after each of its own outbound operations (a write included), so
            // the writes come first and the flush requests, as from other threads, follow without one in between.
            for (int i = 0; i < 3; i++) {
                ch.write(Unpooled.wrappedBuffer(new byte[] {(byte) i}));
            }
            for (int i = 0; i < 3; i++) {
                flusher.flush();
            }
            assertThat(flushes.get()).isZero();
            assertThat(ch.outboundMessages()).isEmpty();

            ch.runPendingTasks();
            assertThat(flushes.get()).isEqualTo(1);
            assertThat(ch.outboundMessages()).hasSize(3);

            ch.write(Unpooled.wrappedBuffer(new byte[] {9}));
            flusher.flush();
            ch.runPendingTasks();
            assertThat(flushes.get()).isEqualTo(2);
            assertThat(ch.outboundMessages()).hasSize(4);

            ch.runPendingTasks();
            assertThat(flushes.get()).isEqualTo(2);
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void shouldSendMessagesWrittenBeforeOneFlushAsOneBuffer() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            ZmtpBatchFlusher flusher = new ZmtpBatchFlusher(p.channel);
            for (String s : new String[] {"a", "bb", "ccc"}) {
                p.channel.write(ZmtpMessage.of(s));
            }
            flusher.flush();
            flusher.flush();
            assertThat(p.outboundChunks()).isEmpty();
            p.channel.runPendingTasks();
            assertThat(p.outboundChunks()).containsExactly(concat(message(ascii("a")), message(ascii("bb")),
                    message(ascii("ccc"))));
        }
    }
}
