package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** ZPoller with java.nio channels beside sockets, and its ItemCreator/ItemHolder registrations. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZPollerChannelTest {
    private static final long DEADLINE_MS = TestTimeouts.scaledMillis(20_000);

    private final ZContext ctx = new ZContext();
    private final Pipe pipe = openPipe();

    @AfterEach
    void close() throws IOException {
        pipe.source().close();
        pipe.sink().close();
        ctx.close();
    }

    private static Pipe openPipe() {
        try {
            Pipe p = Pipe.open();
            p.source().configureBlocking(false);
            return p;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private ZMQ.Socket[] pair(String name) {
        ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
        a.bind("inproc://" + name);
        ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
        b.connect("inproc://" + name);
        return new ZMQ.Socket[] {a, b};
    }

    private void writeToPipe(int bytes) throws IOException {
        pipe.sink().write(ByteBuffer.allocate(bytes));
    }

    @Test
    void shouldCallEachHandlerOfAReadyChannelOnceAndNotThoseOfOtherEvents() throws IOException {
        List<String> calls = new ArrayList<>();
        zmq.util.function.BiFunction<SelectableChannel, Integer, Boolean> first = (c, events) -> calls.add("first");
        zmq.util.function.BiFunction<SelectableChannel, Integer, Boolean> second = (c, events) -> calls.add("second");
        zmq.util.function.BiFunction<SelectableChannel, Integer, Boolean> onError = (c, events) -> calls.add("error");
        try (ZPoller poller = new ZPoller(ctx)) {
            assertThat(poller.register(pipe.source(), first, ZPoller.IN)).isTrue();
            assertThat(poller.register(pipe.source(), second, ZPoller.IN)).isTrue();
            assertThat(poller.register(pipe.source(), onError, ZPoller.ERR)).isTrue();
            assertThat(poller.registered()).isEqualTo(1);
            assertThat(poller.poll(0)).isZero();
            assertThat(calls).isEmpty();

            writeToPipe(3);
            assertThat(poller.poll(DEADLINE_MS)).isEqualTo(1);
            assertThat(calls).containsExactly("first", "second");
            assertThat(poller.isReadable(pipe.source())).isTrue();
            assertThat(poller.readable((Object) pipe.source())).isTrue();
            assertThat(poller.pollin(pipe.source())).isTrue();
            assertThat(poller.isWritable(pipe.source())).isFalse();
            assertThat(poller.isError(pipe.source())).isFalse();
        }
    }

    @Test
    void shouldWakeOnASocketMessageWhileWaitingOnAnIdleChannel() throws Exception {
        ZMQ.Socket[] s = pair("zpoller-wake");
        List<Object> ready = new ArrayList<>();
        try (ZPoller poller = new ZPoller(ctx)) {
            poller.setGlobalHandler(new ZPoller.EventsHandler() {
                @Override
                public boolean events(ZMQ.Socket socket, int events) {
                    return ready.add(socket);
                }

                @Override
                public boolean events(SelectableChannel channel, int events) {
                    return ready.add(channel);
                }
            });
            poller.register(pipe.source(), ZPoller.IN);
            poller.register(s[1], ZPoller.IN);
            CompletableFuture<Integer> polled = CompletableFuture.supplyAsync(() -> poller.poll(DEADLINE_MS));
            s[0].send("wake up");
            assertThat(polled.get()).isEqualTo(1);
            assertThat(ready).containsExactly(s[1]);
            assertThat(poller.isReadable(s[1])).isTrue();
            assertThat(poller.isReadable(pipe.source())).isFalse();
            assertThat(s[1].recvStr()).isEqualTo("wake up");
        }
    }

    @Test
    void shouldStopTheDispatchWhenAChannelHandlerReturnsFalse() throws IOException {
        try (ZPoller poller = new ZPoller(ctx)) {
            poller.register(pipe.source(), (c, events) -> false, ZPoller.IN);
            writeToPipe(1);
            assertThat(poller.poll(DEADLINE_MS)).isEqualTo(-1);
        }
    }

    @Test
    void shouldReportAClosedChannelInError() throws IOException {
        try (ZPoller poller = new ZPoller(ctx)) {
            poller.register(pipe.source(), ZPoller.IN);
            pipe.source().close();
            assertThat(poller.poll(-1)).isEqualTo(1);
            assertThat(poller.error(pipe.source())).isTrue();
            assertThat(poller.pollerr(pipe.source())).isTrue();
        }
    }

    /** A creator of its own, as an application delegating registrations would write. */
    private static final class CountingCreator implements ZPoller.ItemCreator {
        private final ZPoller.SimpleCreator simple = new ZPoller.SimpleCreator();
        int created;

        @Override
        public ZPoller.ItemHolder create(ZMQ.Socket socket, ZPoller.EventsHandler handler, int events) {
            created++;
            return simple.create(socket, handler, events);
        }

        @Override
        public ZPoller.ItemHolder create(SelectableChannel channel, ZPoller.EventsHandler handler, int events) {
            created++;
            return simple.create(channel, handler, events);
        }
    }

    @Test
    void shouldRegisterThroughTheItemCreatorAndKeepEqualHoldersOnce() {
        ZMQ.Socket[] s = pair("creator");
        CountingCreator creator = new CountingCreator();
        try (ZPoller poller = new ZPoller(creator, ctx)) {
            assertThat(poller.register(s[1], ZPoller.IN)).isTrue();
            assertThat(poller.register(pipe.source(), ZPoller.IN)).isTrue();
            assertThat(creator.created).isEqualTo(2);
            // The same socket and handler again (whatever the events): an equal holder, kept once, as in JeroMQ.
            assertThat(poller.register(s[1], ZPoller.OUT)).isFalse();
            assertThat(creator.created).isEqualTo(3);

            ZPoller.ItemHolder holder = poller.create(s[1], null, ZPoller.IN);
            assertThat(holder).isEqualTo(new ZPoller.ZPollItem(s[1], null, ZPoller.OUT));
            assertThat(holder.socket()).isSameAs(s[1]);
            assertThat(holder.item().zinterestOps()).isEqualTo(ZPoller.IN);
            assertThat(holder.item().getRawSocket()).isNull();
            assertThat(poller.items(s[1])).containsExactly(holder);
            assertThat(poller.items(null)).isEmpty();

            ZPoller.ItemHolder channelHolder = poller.create(pipe.source(), null, ZPoller.IN);
            assertThat(channelHolder.item().getRawSocket()).isSameAs(pipe.source());
            assertThat(channelHolder.socket()).isNull();
            assertThat(poller.items()).hasSize(2);

            try (ZPoller shadow = new ZPoller(poller)) {
                shadow.register(s[1], ZPoller.IN);
                assertThat(creator.created).isEqualTo(6);
                assertThat(shadow.registered()).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldPollAHolderRegisteredDirectlyWithItsHandler() throws IOException {
        List<SelectableChannel> ready = new ArrayList<>();
        ZPoller.EventsHandler handler = new ZPoller.ComposeEventsHandler(null, (c, events) -> ready.add(c));
        try (ZPoller poller = new ZPoller(ctx)) {
            assertThat(poller.register(new ZPoller.ZPollItem(pipe.source(), handler, ZPoller.IN))).isTrue();
            writeToPipe(1);
            assertThat(poller.poll(DEADLINE_MS)).isEqualTo(1);
            assertThat(ready).containsExactly(pipe.source());
            assertThat(poller.unregister(pipe.source())).isTrue();
            assertThat(poller.poll(0)).isZero();
        }
    }
}
