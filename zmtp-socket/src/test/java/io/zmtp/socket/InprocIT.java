package io.zmtp.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.socket.SocketTestSupport.text;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every socket pair over inproc://, the order of bind and connect, names, HWM and back-pressure, leaks. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InprocIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    /** {@code a} binds {@code inproc://name}, {@code b} connects to it. */
    private void link(ZmtpSocket a, ZmtpSocket b, String name) {
        assertThat(a.bind("inproc://" + name)).isEqualTo("inproc://" + name);
        b.connect("inproc://" + name);
    }

    @Test
    void shouldPassRequestsAndRepliesBetweenReqAndRep() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket req = socket(REQ);
        link(rep, req, "req-rep");
        for (int i = 0; i < 3; i++) {
            req.send("q" + i);
            assertThat(recv(rep)).isEqualTo("q" + i);
            rep.send("a" + i);
            assertThat(recv(req)).isEqualTo("a" + i);
        }
    }

    @Test
    void shouldEnvelopeRequestsFromReqAtARouter() {
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket req = socket(REQ);
        req.setOption(ZmtpSocketOption.ROUTING_ID, b("r1"));
        link(router, req, "req-router");
        req.send("q");
        assertThat(recv(router)).isEqualTo("r1||q");
        router.send("r1", "", "a");
        assertThat(recv(req)).isEqualTo("a");
    }

    @Test
    void shouldServeADealerFromARep() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket dealer = socket(DEALER);
        link(rep, dealer, "dealer-rep");
        dealer.send("", "q");
        assertThat(recv(rep)).isEqualTo("q");
        rep.send("a");
        assertThat(recv(dealer)).isEqualTo("|a");
    }

    @Test
    void shouldRouteBetweenDealerAndRouterByRoutingId() {
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket d1 = socket(DEALER);
        ZmtpSocket d2 = socket(DEALER);
        d1.setOption(ZmtpSocketOption.ROUTING_ID, b("d1"));
        d2.setOption(ZmtpSocketOption.ROUTING_ID, b("d2"));
        link(router, d1, "dealer-router");
        d2.connect("inproc://dealer-router");
        d1.send("from1");
        d2.send("from2");
        assertThat(recv(router)).isIn("d1|from1", "d2|from2");
        assertThat(recv(router)).isIn("d1|from1", "d2|from2");
        router.send("d2", "to2");
        router.send("d1", "to1");
        assertThat(recv(d1)).isEqualTo("to1");
        assertThat(recv(d2)).isEqualTo("to2");
    }

    @Test
    void shouldPassMessagesBothWaysBetweenDealers() {
        ZmtpSocket a = socket(DEALER);
        ZmtpSocket c = socket(DEALER);
        link(a, c, "dealer-dealer");
        c.send("ping");
        assertThat(recv(a)).isEqualTo("ping");
        a.send("pong", "2");
        assertThat(recv(c)).isEqualTo("pong|2");
    }

    @Test
    void shouldPushToAPullInOrder() throws Exception {
        ZmtpSocket pull = socket(PULL);
        ZmtpSocket push = socket(PUSH);
        link(pull, push, "push-pull");
        // More than both HWMs hold, so the sender has to wait for the reader now and then.
        Thread sender = new Thread(() -> {
            for (int i = 0; i < 10_000; i++) {
                push.send("m" + i);
            }
        });
        sender.start();
        for (int i = 0; i < 10_000; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
        sender.join();
    }

    @Test
    void shouldFilterPublishedMessagesBySubscription() {
        ZmtpSocket pub = socket(PUB);
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("a"));
        link(pub, sub, "pub-sub");
        assertThat(awaitFirst(pub, sub, "a0")).isEqualTo("a0");
        pub.send("b1");
        pub.send("a2");
        assertThat(recv(sub)).isEqualTo("a2");
        sub.setOption(ZmtpSocketOption.UNSUBSCRIBE, b("a"));
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("b"));
        assertThat(awaitFirst(pub, sub, "b3")).isEqualTo("b3");
    }

    @Test
    void shouldCarrySubscriptionsFromXsubToXpub() {
        ZmtpSocket xpub = socket(XPUB);
        ZmtpSocket xsub = socket(XSUB);
        link(xpub, xsub, "xpub-xsub");
        xsub.send(ZmtpMessage.ofBytes(new byte[] {1, 'T'}));
        ZmtpMessage subscription = xpub.receive(WAIT);
        assertThat(subscription).isNotNull();
        assertThat(subscription.frameBytes(0)).containsExactly(1, 'T');
        subscription.release();
        xpub.send("T1");
        xpub.send("U1");
        xpub.send("T2");
        assertThat(recv(xsub)).isEqualTo("T1");
        assertThat(recv(xsub)).isEqualTo("T2");
    }

    @Test
    void shouldPairTwoPairs() {
        ZmtpSocket a = socket(PAIR);
        ZmtpSocket c = socket(PAIR);
        link(a, c, "pair");
        a.send("x");
        assertThat(recv(c)).isEqualTo("x");
        c.send("y");
        assertThat(recv(a)).isEqualTo("y");
    }

    @Test
    void shouldConnectAsSoonAsANameIsBoundAfterTheConnect() {
        ZmtpSocket push = socket(PUSH);
        // Long enough that only the bind itself can bring the connection up within the test's wait.
        push.setOption(ZmtpSocketOption.RECONNECT_IVL, 60_000);
        push.connect("inproc://later");
        assertThat(push.trySend(ZmtpMessage.of("queued"))).isTrue();
        ZmtpSocket pull = socket(PULL);
        pull.bind("inproc://later");
        assertThat(recv(pull)).isEqualTo("queued");
    }

    @Test
    void shouldRefuseANameBoundTwice() {
        ZmtpSocket a = socket(PULL);
        ZmtpSocket c = socket(PULL);
        a.bind("inproc://twice");
        assertThatThrownBy(() -> c.bind("inproc://twice"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("inproc://twice is already bound");
    }

    @Test
    void shouldFreeANameOnUnbindAndOnClose() {
        ZmtpSocket a = socket(PULL);
        a.bind("inproc://reused");
        a.unbind("inproc://reused");
        ZmtpSocket c = socket(PULL);
        c.bind("inproc://reused");
        c.close();
        ZmtpSocket d = socket(PULL);
        d.bind("inproc://reused");
        ZmtpSocket push = socket(PUSH);
        push.connect("inproc://reused");
        push.send("to d");
        assertThat(recv(d)).isEqualTo("to d");
    }

    @Test
    void shouldRejectAnEmptyName() {
        ZmtpSocket a = socket(PULL);
        assertThatThrownBy(() -> a.bind("inproc://")).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
        assertThatThrownBy(() -> a.connect("inproc://")).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }

    @Test
    void shouldKeepNamesWithinTheirContext() {
        try (ZmtpContext other = ZmtpContext.builder().lingerCapMillis(0).build()) {
            ZmtpSocket here = socket(PULL);
            here.bind("inproc://shared");
            ZmtpSocket there = other.socket(PULL);
            there.setOption(ZmtpSocketOption.LINGER, 0);
            there.bind("inproc://shared");
            ZmtpSocket push = socket(PUSH);
            push.connect("inproc://shared");
            push.send("here");
            assertThat(recv(here)).isEqualTo("here");
            assertThat(there.receive(Duration.ofMillis(100))).isNull();
        }
    }

    /**
     * As with libzmq, whose zmq_connect joins an inproc connection to a bound name before it returns: what is sent
     * right after connect is the peer's even if the socket is closed at once with LINGER 0 (the ZeroMQ Guide's
     * mtrelay signals its next step that way). Ours joined a moment later, on the inproc thread, and the message,
     * still in the connecting socket's queue, went with the close.
     */
    @Test
    void shouldDeliverWhatWasSentRightAfterConnectingToABoundNameThenClosedWithoutLinger() {
        ZmtpSocket pull = socket(PULL);
        pull.bind("inproc://signal-and-close");
        for (int i = 0; i < 200; i++) {
            ZmtpSocket push = socket(PUSH);
            push.setOption(ZmtpSocketOption.LINGER, 0);
            push.connect("inproc://signal-and-close");
            push.send("ready " + i);
            push.close();
            assertThat(recv(pull)).isEqualTo("ready " + i);
        }
    }

    /**
     * The same, as the first connection of a fresh context, right after bind: bind returned once the listener's
     * channel was bound, but the name was registered a moment later, on the inproc thread; a connect in between
     * found it not yet bound and didn't wait for the join, and the message went with the close. Lost in 202 of 300
     * fresh contexts before bind waited for the registration (2026-11-27), and in CI now and then (the test above,
     * whose first round is this).
     */
    @Test
    void shouldDeliverWhatWasSentRightAfterConnectingToANameJustBoundThenClosedWithoutLinger() {
        for (int round = 0; round < 20; round++) {
            try (ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(2000).build()) {
                ZmtpSocket pull = ctx.socket(PULL);
                pull.bind("inproc://just-bound");
                ZmtpSocket push = ctx.socket(PUSH);
                push.setOption(ZmtpSocketOption.LINGER, 0);
                push.connect("inproc://just-bound");
                push.send("ready " + round);
                push.close();
                assertThat(recv(pull)).isEqualTo("ready " + round);
            }
        }
    }

    /**
     * The Guide's mtrelay: a thread connects to a name nobody has bound yet, sends, and closes with LINGER 0; the next
     * step binds the name a moment later. libzmq (and JeroMQ) made the pipe at connect time, so the message was the
     * binder's; ours stayed in the connecting socket's queue until the bind, and the close dropped it (mtrelay lost
     * it every time, a probe 20 of 20 rounds). Now close parks the connect (Pipe.park) and the bind's join hands the
     * message over. Both the bind right after the close and one a while later.
     */
    @Test
    void shouldDeliverWhatWasSentBeforeTheNameWasBoundThenClosedWithoutLinger() throws Exception {
        for (int round = 0; round < 40; round++) {
            ZmtpSocket pair = socket(PAIR);
            pair.setOption(ZmtpSocketOption.LINGER, 0);
            pair.connect("inproc://bound-later-" + round);
            pair.send("ready " + round);
            pair.close();
            if (round % 10 == 9) {
                Thread.sleep(50);
            }
            ZmtpSocket binder = socket(PAIR);
            binder.bind("inproc://bound-later-" + round);
            assertThat(recv(binder)).isEqualTo("ready " + round);
            binder.close();
        }
    }

    /**
     * The same close with LINGER -1 returns at once, as libzmq's does, instead of waiting for a bind that may never
     * come (up to the context's linger cap); the message still reaches the binder. A parked connect whose name is never
     * bound has its message released when the context closes (the leak check would report it).
     */
    @Test
    void shouldReturnFromALingeringCloseOfAConnectWaitingForItsBind() throws Exception {
        ZmtpSocket pair = socket(PAIR);
        pair.setOption(ZmtpSocketOption.LINGER, -1);
        pair.connect("inproc://bound-after-close");
        pair.send("ready");
        long t0 = System.nanoTime();
        pair.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        ZmtpSocket binder = socket(PAIR);
        binder.bind("inproc://bound-after-close");
        assertThat(recv(binder)).isEqualTo("ready");
        assertThat(closeMillis).as("close of a connect waiting for its bind").isLessThan(1000);

        ZmtpSocket never = socket(PUSH);
        never.setOption(ZmtpSocketOption.LINGER, -1);
        never.connect("inproc://never-bound");
        never.send(ZmtpMessage.wrap(PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(b("held"))));
        never.close();
    }

    /**
     * A context closing two inproc peers together doesn't wait for messages one has queued to the other, which is
     * closing too and will never take them: here a SUB's UNSUBSCRIBE to a PUB that never sends (a PUB reads
     * subscriptions only when it sends). It waited out the whole linger cap, because the PUB's pipes end only after
     * the SUB's close has finished. The cap is an hour, so only the JUnit timeout would end the old behaviour.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCloseAContextWithoutWaitingForPeersItIsClosingToo() {
        for (boolean subFirst : new boolean[] {true, false}) {
            ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(3_600_000).build();
            ZmtpSocket sub = subFirst ? ctx.socket(SUB) : null;
            ZmtpSocket pub = ctx.socket(PUB);
            if (sub == null) {
                sub = ctx.socket(SUB);
            }
            assertThat(sub.getOption(ZmtpSocketOption.LINGER)).isEqualTo(-1);
            pub.bind("inproc://closing-together");
            sub.connect("inproc://closing-together");
            sub.setOption(ZmtpSocketOption.SUBSCRIBE, b(""));
            // Connected both ways once the SUB hears the PUB; from then on the PUB sends nothing, so it reads none
            // of the subscription changes below and they stay queued.
            ZmtpMessage heard = null;
            while (heard == null) {
                pub.send("hello");
                heard = sub.receive(Duration.ofMillis(10));
            }
            heard.release();
            for (int i = 0; i < 100; i++) {
                sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("topic-" + i));
                sub.setOption(ZmtpSocketOption.UNSUBSCRIBE, b("topic-" + i));
            }
            ctx.close();
            ZmtpSocket closedSub = sub;
            assertThatThrownBy(() -> closedSub.send("x")).isInstanceOf(ZmtpSocketException.class);
            assertThatThrownBy(() -> pub.send("x")).isInstanceOf(ZmtpSocketException.Closed.class);
        }
    }

    @Test
    void shouldNotConnectIncompatibleSocketTypes() {
        ZmtpSocket push = socket(PUSH);
        ZmtpSocket other = socket(PUSH);
        push.bind("inproc://incompatible");
        other.setOption(ZmtpSocketOption.RECONNECT_IVL, 60_000);
        other.connect("inproc://incompatible");
        assertThat(other.trySend(ZmtpMessage.of("nowhere"))).isTrue();
        ZmtpSocket pull = socket(PULL);
        pull.connect("inproc://incompatible");
        push.send("to pull");
        assertThat(recv(pull)).isEqualTo("to pull");
    }

    @Test
    void shouldBlockAPushAtItsHwmWhileThePullDoesNotRead() {
        ZmtpSocket pull = socket(PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 10);
        ZmtpSocket push = socket(PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 10);
        link(pull, push, "hwm");
        // The limit below is the joined connection's: before the join the PUSH's own queue holds only its SNDHWM.
        long joinDeadline = System.nanoTime() + scaled(Duration.ofSeconds(10)).toNanos();
        while (push.peers().stream().noneMatch(peer -> peer.state() == ZmtpPeer.State.CONNECTED)) {
            assertThat(System.nanoTime() - joinDeadline).as("the inproc connection comes up").isNegative();
            Thread.onSpinWait();
        }
        int sent = 0;
        // A full pipe refuses at once; messages still moving may free room for a moment, so wait for it to stay full.
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(300)) {
            if (push.trySend(ZmtpMessage.of("m" + sent))) {
                sent++;
                quietSince = System.nanoTime();
                assertThat(sent).as("messages accepted with nobody reading").isLessThan(5_000);
            } else {
                Thread.onSpinWait();
            }
        }
        // libzmq's limit for a direction: the sender's SNDHWM plus the receiver's RCVHWM (nobody reads, so exactly).
        assertThat(sent).isEqualTo(10 + 10);
        assertThat(push.send(ZmtpMessage.of("blocked"), Duration.ofMillis(100))).isFalse();
        for (int i = 0; i < sent; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
        // Reading made room again.
        push.send("after");
        assertThat(recv(pull)).isEqualTo("after");
    }

    @Test
    void shouldReleaseMessagesInFlightWhenSocketsClose() {
        ZmtpSocket pull = socket(PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 10);
        ZmtpSocket push = socket(PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 100);
        push.setOption(ZmtpSocketOption.LINGER, 0);
        pull.setOption(ZmtpSocketOption.LINGER, 0);
        link(pull, push, "in-flight");
        // Pooled buffers, which the paranoid leak detector tracks (it ignores unpooled wrapped arrays).
        int sent = 0;
        while (sent < 2_000 && push.send(message(sent), Duration.ofMillis(200))) {
            sent++;
        }
        assertThat(sent).isGreaterThan(100);
        // One is with the application, some in the pull's batch, the rest in the push's queue the pull reads.
        ZmtpMessage taken = pull.receive(WAIT);
        assertThat(taken).isNotNull();
        text(taken);
        push.close();
        pull.close();
    }

    private static ZmtpMessage message(int i) {
        ByteBuf frame = PooledByteBufAllocator.DEFAULT.directBuffer(16);
        frame.writeInt(i);
        return ZmtpMessage.wrap(frame);
    }
}
