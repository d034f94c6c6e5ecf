package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** ZMQ.Poller, ZMQ.poll and ZPoller over inproc sockets. */
class PollerTest {
    private final ZMQ.Context context = ZMQ.context(1);

    @AfterEach
    void term() {
        context.term();
    }

    private ZMQ.Socket[] pair(String name) {
        ZMQ.Socket a = context.socket(SocketType.PAIR);
        a.bind("inproc://" + name);
        ZMQ.Socket b = context.socket(SocketType.PAIR);
        b.connect("inproc://" + name);
        return new ZMQ.Socket[] {a, b};
    }

    @Test
    void pollerReportsTheItemsThatAreReadyByIndex() {
        ZMQ.Socket[] one = pair("poll-one");
        ZMQ.Socket[] two = pair("poll-two");
        ZMQ.Poller poller = context.poller(2);
        assertThat(poller.register(one[1], ZMQ.Poller.POLLIN)).isZero();
        assertThat(poller.register(two[1], ZMQ.Poller.POLLIN)).isEqualTo(1);
        assertThat(poller.getSize()).isEqualTo(2);
        assertThat(poller.poll(0)).isZero();

        two[0].send("x");
        assertThat(poller.poll(-1)).isEqualTo(1);
        assertThat(poller.pollin(0)).isFalse();
        assertThat(poller.pollin(1)).isTrue();
        assertThat(poller.getItem(1).isReadable()).isTrue();
        assertThat(poller.getSocket(1)).isSameAs(two[1]);
        assertThat(poller.pollerr(1)).isFalse();
        assertThat(two[1].recvStr()).isEqualTo("x");
        assertThat(poller.poll(0)).isZero();
        poller.close();
    }

    @Test
    void aSocketThatCanSendIsWritable() {
        ZMQ.Socket[] s = pair("poll-out");
        ZMQ.Poller poller = context.poller();
        poller.register(s[0], ZMQ.Poller.POLLOUT);
        assertThat(poller.poll(-1)).isEqualTo(1);
        assertThat(poller.pollout(0)).isTrue();
        poller.close();
    }

    @Test
    void aSocketWithFramesLeftOfAMessageIsReadable() {
        ZMQ.Socket[] s = pair("poll-more");
        s[0].sendMore("a");
        s[0].send("b");
        assertThat(s[1].recvStr()).isEqualTo("a");
        ZMQ.Poller poller = context.poller();
        poller.register(s[1], ZMQ.Poller.POLLIN);
        // Waiting forever must not wait: the frame left is held by the socket, not queued in netty-zmtp.
        assertThat(poller.poll(-1)).isEqualTo(1);
        poller.close();
        try (ZPoller zpoller = new ZPoller(context.selector())) {
            zpoller.register(s[1], ZPoller.IN);
            assertThat(zpoller.poll(-1)).isEqualTo(1);
            assertThat(zpoller.isReadable(s[1])).isTrue();
        }
        assertThat(ZMQ.poll(null, new ZMQ.PollItem[] {new ZMQ.PollItem(s[1], ZMQ.Poller.POLLIN)}, -1)).isEqualTo(1);
        assertThat(s[1].recvStr()).isEqualTo("b");
    }

    @Test
    void unregisteringShiftsTheLaterItemsDown() {
        ZMQ.Socket[] one = pair("unreg-one");
        ZMQ.Socket[] two = pair("unreg-two");
        ZMQ.Poller poller = context.poller();
        poller.register(one[1], ZMQ.Poller.POLLIN);
        poller.register(two[1], ZMQ.Poller.POLLIN);
        poller.unregister(one[1]);
        assertThat(poller.getSize()).isEqualTo(1);
        assertThat(poller.getSocket(0)).isSameAs(two[1]);
        two[0].send("y");
        assertThat(poller.poll(-1)).isEqualTo(1);
        assertThat(poller.pollin(0)).isTrue();
        poller.close();
    }

    @Test
    void theStaticPollFillsTheItems() {
        ZMQ.Socket[] s = pair("static-poll");
        ZMQ.PollItem[] items = {new ZMQ.PollItem(s[1], ZMQ.Poller.POLLIN), new ZMQ.PollItem(s[0], ZMQ.Poller.POLLIN)};
        s[0].send("z");
        assertThat(ZMQ.poll(null, items, -1)).isEqualTo(1);
        assertThat(items[0].isReadable()).isTrue();
        assertThat(items[0].readyOps()).isEqualTo(ZMQ.Poller.POLLIN);
        assertThat(items[1].isReadable()).isFalse();
    }

    @Test
    void zpollerCallsTheHandlerOfEachReadySocket() {
        ZMQ.Socket[] one = pair("zpoller-one");
        ZMQ.Socket[] two = pair("zpoller-two");
        List<String> got = new ArrayList<>();
        try (ZPoller poller = new ZPoller(context.selector())) {
            poller.register(one[1], (socket, events) -> got.add("one:" + socket.recvStr()), ZPoller.IN);
            poller.setGlobalHandler(new ZPoller.ComposeEventsHandler((socket, events) -> got.add("global:"
                    + socket.recvStr()), null));
            poller.register(two[1], ZPoller.POLLIN);
            assertThat(poller.registered()).isEqualTo(2);

            one[0].send("a");
            two[0].send("b");
            int ready = 0;
            while (got.size() < 2) {
                ready += poller.poll(-1);
            }
            assertThat(ready).isGreaterThanOrEqualTo(1);
            assertThat(got).containsExactlyInAnyOrder("one:a", "global:b");
        }
    }

    @Test
    void aZpollerHandlerReturningFalseMakesPollReturnMinusOne() {
        ZMQ.Socket[] s = pair("zpoller-false");
        try (ZPoller poller = new ZPoller(new ZContext())) {
            poller.register(s[1], (socket, events) -> false, ZPoller.IN);
            s[0].send("x");
            assertThat(poller.poll(-1)).isEqualTo(-1);
            assertThat(poller.isReadable(s[1])).isTrue();
            assertThat(poller.unregister(s[1])).isTrue();
            assertThat(poller.registered()).isZero();
        }
    }
}
