package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.channels.Selector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ZMQ.Poller and ZMQ.poll with java.nio channels beside sockets (a selector that the sockets wake). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChannelPollerTest {
    /** How long a poll may wait for what will happen: never reached unless the poll missed it. */
    private static final long DEADLINE_MS = TestTimeouts.scaledMillis(20_000);

    private final ZMQ.Context context = ZMQ.context(1);
    private final Pipe pipe = openPipe();

    @AfterEach
    void close() throws IOException {
        pipe.source().close();
        pipe.sink().close();
        context.term();
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
        ZMQ.Socket a = context.socket(SocketType.PAIR);
        a.bind("inproc://" + name);
        ZMQ.Socket b = context.socket(SocketType.PAIR);
        b.connect("inproc://" + name);
        return new ZMQ.Socket[] {a, b};
    }

    private void writeToPipe(String text) throws IOException {
        pipe.sink().write(ByteBuffer.wrap(text.getBytes(ZMQ.CHARSET)));
    }

    private String readPipe() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        pipe.source().read(buffer);
        return new String(buffer.array(), 0, buffer.position(), ZMQ.CHARSET);
    }

    @Test
    void aReadablePipeIsReportedBesideAnIdleSocket() throws IOException {
        ZMQ.Socket[] s = pair("pipe-beside");
        ZMQ.Poller poller = context.poller(2);
        assertThat(poller.register(s[1], ZMQ.Poller.POLLIN)).isZero();
        assertThat(poller.register(pipe.source(), ZMQ.Poller.POLLIN)).isEqualTo(1);
        assertThat(poller.poll(0)).isZero();

        writeToPipe("abc");
        assertThat(poller.poll(DEADLINE_MS)).isEqualTo(1);
        assertThat(poller.pollin(0)).isFalse();
        assertThat(poller.pollin(1)).isTrue();
        assertThat(poller.getItem(1).getRawSocket()).isSameAs(pipe.source());
        assertThat(poller.getItem(1).getSocket()).isNull();
        assertThat(poller.getSocket(1)).isNull();
        assertThat(readPipe()).isEqualTo("abc");
        assertThat(poller.poll(0)).isZero();

        // Both at once: both reported by the same poll.
        writeToPipe("d");
        s[0].send("x");
        assertThat(poller.poll(DEADLINE_MS)).isGreaterThanOrEqualTo(1);
        if (!(poller.pollin(0) && poller.pollin(1))) {
            assertThat(poller.poll(DEADLINE_MS)).isEqualTo(2);
        }
        assertThat(poller.pollin(0)).isTrue();
        assertThat(poller.pollin(1)).isTrue();
        assertThat(s[1].recvStr()).isEqualTo("x");
        assertThat(readPipe()).isEqualTo("d");
        poller.close();
    }

    @Test
    void aSocketMessageWakesAPollThatAlsoWaitsOnAnIdleChannel() throws Exception {
        ZMQ.Socket[] s = pair("wake-select");
        ZMQ.Poller poller = context.poller(2);
        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        poller.register(s[1], ZMQ.Poller.POLLIN);
        CompletableFuture<Integer> polled = CompletableFuture.supplyAsync(() -> poller.poll(DEADLINE_MS));
        s[0].send("wake up");
        assertThat(polled.get()).isEqualTo(1);
        assertThat(poller.pollin(1)).isTrue();
        assertThat(poller.pollin(0)).isFalse();
        assertThat(s[1].recvStr()).isEqualTo("wake up");
        poller.close();
    }

    @Test
    void aPipeWrittenByAnotherThreadWakesAPollThatAlsoWaitsOnASocket() throws Exception {
        ZMQ.Socket[] s = pair("wake-by-pipe");
        ZMQ.Poller poller = context.poller(2);
        poller.register(s[1], ZMQ.Poller.POLLIN);
        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        CompletableFuture<Integer> polled = CompletableFuture.supplyAsync(() -> poller.poll(DEADLINE_MS));
        writeToPipe("p");
        assertThat(polled.get()).isEqualTo(1);
        assertThat(poller.pollin(1)).isTrue();
        assertThat(poller.pollin(0)).isFalse();
        poller.close();
    }

    @Test
    void aDatagramChannelIsReadableAndWritableThroughZmqPoll() throws IOException {
        ZMQ.Socket[] s = pair("udp-beside");
        try (DatagramChannel in = DatagramChannel.open(); DatagramChannel out = DatagramChannel.open()) {
            in.configureBlocking(false);
            in.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            out.configureBlocking(false);
            ZMQ.PollItem[] items = {
                new ZMQ.PollItem(s[1], ZMQ.Poller.POLLIN),
                new ZMQ.PollItem(in, ZMQ.Poller.POLLIN),
                new ZMQ.PollItem(out, ZMQ.Poller.POLLOUT),
            };
            assertThat(ZMQ.poll(null, items, DEADLINE_MS)).isEqualTo(1);
            assertThat(items[2].isWritable()).isTrue();
            assertThat(items[1].isReadable()).isFalse();

            out.send(ByteBuffer.wrap("udp".getBytes(ZMQ.CHARSET)), in.getLocalAddress());
            ZMQ.PollItem[] reading = {items[0], items[1]};
            try (Selector selector = Selector.open()) {
                assertThat(ZMQ.poll(selector, reading, DEADLINE_MS)).isEqualTo(1);
            }
            assertThat(items[1].isReadable()).isTrue();
            assertThat(items[0].isReadable()).isFalse();
            ByteBuffer got = ByteBuffer.allocate(8);
            in.receive(got);
            assertThat(new String(got.array(), 0, got.position(), ZMQ.CHARSET)).isEqualTo("udp");
        }
    }

    @Test
    void aClosedChannelIsReportedInErrorAtOnce() throws IOException {
        ZMQ.Poller poller = context.poller();
        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        pipe.source().close();
        assertThat(poller.poll(-1)).isEqualTo(1);
        assertThat(poller.pollerr(0)).isTrue();
        assertThat(poller.getItem(0).isError()).isTrue();
        poller.close();
    }

    @Test
    void aBlockingChannelIsRefusedAsJeromqRefusesIt() throws IOException {
        pipe.source().configureBlocking(true);
        ZMQ.Poller poller = context.poller();
        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        assertThatThrownBy(() -> poller.poll(0)).isInstanceOf(IllegalBlockingModeException.class);
        poller.close();
    }

    @Test
    void anUnregisteredChannelLeavesTheSelectorAndClosingThePollerClosesIt() throws IOException {
        ZMQ.Socket[] s = pair("unregister");
        ZMQ.Poller poller = context.poller();
        poller.register(s[1], ZMQ.Poller.POLLIN);
        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        assertThat(poller.poll(0)).isZero();
        assertThat(pipe.source().isRegistered()).isTrue();

        poller.unregister(pipe.source());
        assertThat(poller.getSize()).isEqualTo(1);
        writeToPipe("ignored");
        s[0].send("x");
        assertThat(poller.poll(DEADLINE_MS)).isEqualTo(1);
        assertThat(poller.pollin(0)).isTrue();
        assertThat(s[1].recvStr()).isEqualTo("x");
        assertThat(pipe.source().isRegistered()).as("registered after a poll without it").isFalse();
        pipe.source().configureBlocking(true);
        pipe.source().configureBlocking(false);

        poller.register(pipe.source(), ZMQ.Poller.POLLIN);
        assertThat(poller.poll(0)).isEqualTo(1);
        assertThat(pipe.source().isRegistered()).isTrue();

        poller.close();
        assertThat(pipe.source().isRegistered()).as("registered after the poller closed its selector").isFalse();
    }

    @Test
    void pollItemsOfTheSameChannelAreEqual() {
        ZMQ.PollItem read = new ZMQ.PollItem(pipe.source(), ZMQ.Poller.POLLIN);
        ZMQ.PollItem write = new ZMQ.PollItem(pipe.source(), ZMQ.Poller.POLLOUT);
        assertThat(read).isEqualTo(write).hasSameHashCodeAs(write);
        assertThat(read).isNotEqualTo(new ZMQ.PollItem(pipe.sink(), ZMQ.Poller.POLLIN));
        assertThat(read.getRawSocket()).isSameAs(pipe.source());
    }
}
