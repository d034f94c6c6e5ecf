package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZProxyTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final ZContext ctx = new ZContext();
    private final String front = "inproc://zproxy-front-" + NAMES.incrementAndGet();
    private final String back = "inproc://zproxy-back-" + NAMES.get();
    private final String capture = "inproc://zproxy-capture-" + NAMES.get();

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    /** ROUTER in front, DEALER behind, PUSH capture, all bound; records its calls. */
    private class Sockets extends ZProxy.Proxy.SimpleProxy {
        final Queue<String> calls = new ConcurrentLinkedQueue<>();

        @Override
        public ZMQ.Socket create(ZContext proxyCtx, ZProxy.Plug place, Object... args) {
            calls.add("create " + place + " " + args[0]);
            switch (place) {
            case FRONT:
                return proxyCtx.createSocket(SocketType.ROUTER);
            case BACK:
                return proxyCtx.createSocket(SocketType.DEALER);
            default:
                return proxyCtx.createSocket(SocketType.PUSH);
            }
        }

        @Override
        public boolean configure(ZMQ.Socket socket, ZProxy.Plug place, Object... args) {
            calls.add("configure " + place);
            return socket.bind(place == ZProxy.Plug.FRONT ? front : place == ZProxy.Plug.BACK ? back : capture);
        }

        @Override
        public boolean restart(ZMsg cfg, ZMQ.Socket socket, ZProxy.Plug place, Object... args) {
            calls.add("restart " + place + " " + cfg.peekFirst().getString(ZMQ.CHARSET));
            return false; // in place
        }

        @Override
        public boolean configure(ZMQ.Socket pipe, ZMsg cfg, ZMQ.Socket frontend, ZMQ.Socket backend,
                ZMQ.Socket cpt, Object... args) {
            pipe.send("configured " + cfg.popString());
            return true;
        }
    }

    /** One request from a new REQ through the proxy to a new REP and back; the REP answers in upper case. */
    private void roundTrip(String request) {
        ZMQ.Socket client = ctx.createSocket(SocketType.REQ);
        client.connect(front);
        ZMQ.Socket worker = ctx.createSocket(SocketType.REP);
        worker.connect(back);
        assertThat(client.send(request)).isTrue();
        String got = worker.recvStr();
        assertThat(got).isEqualTo(request);
        worker.send(got.toUpperCase(Locale.ROOT));
        assertThat(client.recvStr()).isEqualTo(request.toUpperCase(Locale.ROOT));
        client.close();
        worker.close();
    }

    @Test
    void shouldGoThroughItsStatesAndProxyWhileStarted() throws Exception {
        Sockets sockets = new Sockets();
        ZProxy proxy = ZProxy.newProxy(ctx, "proxy-states", sockets, "END", "arg");
        assertThat(proxy.status()).isEqualTo(ZProxy.STOPPED);
        assertThat(proxy.started()).isFalse();
        assertThat(proxy.start(true)).isEqualTo(ZProxy.STARTED);
        assertThat(proxy.isStarted()).isTrue();

        ZMQ.Socket copies = ctx.createSocket(SocketType.PULL);
        copies.connect(capture);
        // The proxy drops copies the capture socket can't take at once: wait until the PULL is attached.
        while (copies.zmtpSocket().peers().isEmpty()) {
            Thread.sleep(1);
        }
        roundTrip("hello");
        // The capture socket got both ways: the request with the ROUTER's envelope, then the reply.
        ZMsg request = ZMsg.recvMsg(copies);
        assertThat(request.peekLast().getString(ZMQ.CHARSET)).isEqualTo("hello");
        assertThat(ZMsg.recvMsg(copies).peekLast().getString(ZMQ.CHARSET)).isEqualTo("HELLO");

        assertThat(proxy.pause(true)).isEqualTo(ZProxy.PAUSED);
        assertThat(proxy.command(ZProxy.Command.STATUS, true)).isEqualTo(ZProxy.State.PAUSED);
        assertThat(proxy.start(true)).isEqualTo(ZProxy.STARTED);
        roundTrip("resumed");

        assertThat(proxy.stop(true)).isEqualTo(ZProxy.STOPPED);
        // Stopped: the sockets were made again and not bound, so the names are free.
        ZMQ.Socket squatter = ctx.createSocket(SocketType.ROUTER);
        assertThat(squatter.bind(front)).isTrue();
        squatter.close();
        assertThat(proxy.start(true)).isEqualTo(ZProxy.STARTED);
        roundTrip("again");

        assertThat(proxy.exit()).isEqualTo(ZProxy.EXITED);
        assertThat(proxy.status()).isEqualTo(ZProxy.EXITED);
        assertThat(sockets.calls).containsExactly(
                "create FRONT arg", "create CAPTURE arg", "create BACK arg",
                "configure FRONT", "configure BACK", "configure CAPTURE",
                "create FRONT arg", "create CAPTURE arg", "create BACK arg",
                "configure FRONT", "configure BACK", "configure CAPTURE");
        for (Thread t : threads("proxy-states")) {
            t.join();
        }
    }

    @Test
    void shouldRestartColdWithNewSocketsStillStartedAndHotInPlace() {
        Sockets sockets = new Sockets();
        ZProxy proxy = ZProxy.newProxy(ctx, null, sockets, "END", "arg");
        proxy.start(true);
        roundTrip("before");

        proxy.restart(null);
        assertThat(proxy.status()).isEqualTo(ZProxy.STARTED);
        roundTrip("after a cold restart");

        ZMsg hot = new ZMsg();
        hot.add("hot-cfg");
        proxy.restart(hot);
        assertThat(proxy.status()).isEqualTo(ZProxy.STARTED);
        roundTrip("after a hot restart");
        assertThat(sockets.calls).filteredOn(c -> c.startsWith("restart")).containsExactly(
                "restart FRONT hot-cfg", "restart BACK hot-cfg", "restart CAPTURE hot-cfg");
        assertThat(sockets.calls).filteredOn(c -> c.startsWith("create FRONT")).hasSize(2);
        proxy.exit();
    }

    /**
     * A hot restart of a stopped proxy, whose sockets are made but not bound: a Proxy that unbinds what it bound
     * before gets false from unbind (as from JeroMQ's), not an exception, and the proxy stays STOPPED.
     */
    @Test
    void shouldStayStoppedAfterAHotRestartThatUnbindsWhatIsNotBound() {
        Sockets sockets = new Sockets() {
            @Override
            public boolean restart(ZMsg cfg, ZMQ.Socket socket, ZProxy.Plug place, Object... args) {
                if (socket != null) {
                    calls.add("unbind " + place + " " + socket.unbind("tcp://127.0.0.1:1"));
                }
                return false;
            }
        };
        ZProxy proxy = ZProxy.newProxy(ctx, null, sockets, "END", "arg");
        assertThat(proxy.start(true)).isEqualTo(ZProxy.STARTED);
        assertThat(proxy.stop(true)).isEqualTo(ZProxy.STOPPED);
        ZMsg hot = new ZMsg();
        hot.add("HOT");
        assertThat(proxy.restart(hot)).isEqualTo(ZProxy.STOPPED);
        assertThat(proxy.status(true)).isEqualTo(ZProxy.STOPPED);
        assertThat(sockets.calls).contains("unbind FRONT false", "unbind BACK false", "unbind CAPTURE false");
        assertThat(proxy.exit()).isEqualTo(ZProxy.EXITED);
    }

    @Test
    void shouldHandAConfigurationToTheProxyAndReturnItsReply() {
        ZProxy proxy = ZProxy.newProxy(ctx, null, new Sockets(), "END", "arg");
        ZMsg cfg = new ZMsg();
        cfg.add("CONFIG-1");
        ZMsg reply = proxy.configure(cfg);
        assertThat(reply.popString()).isEqualTo("configured CONFIG-1");
        assertThat(proxy.status()).isEqualTo(ZProxy.STOPPED);
        assertThatThrownBy(() -> proxy.command("RESTART", true)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proxy.command("CONFIG", true)).isInstanceOf(IllegalArgumentException.class);
        proxy.exit();
    }

    @Test
    void shouldTransformMessagesWithAZPump() {
        ZProxy.ZPump pump = new ZProxy.ZPump((msg, src, dst) -> {
            if (src == ZProxy.Plug.FRONT && dst == ZProxy.Plug.BACK) {
                ZMsg out = msg.duplicate();
                String body = out.removeLast().getString(ZMQ.CHARSET);
                out.add(body + "!");
                return out;
            }
            return msg;
        });
        ZProxy proxy = new ZProxy(ctx, "zpump", new Sockets(), pump, "END", "arg");
        proxy.start(true);
        ZMQ.Socket client = ctx.createSocket(SocketType.REQ);
        client.connect(front);
        ZMQ.Socket worker = ctx.createSocket(SocketType.REP);
        worker.connect(back);
        client.send("hi");
        assertThat(worker.recvStr()).isEqualTo("hi!");
        worker.send("ok");
        assertThat(client.recvStr()).isEqualTo("ok");
        proxy.exit();
    }

    @Test
    void shouldEndItsThreadWhenTheContextIsClosed() throws Exception {
        ZContext own = new ZContext();
        ZProxy proxy = ZProxy.newProxy(own, "proxy-closed", new Sockets(), "END", "arg");
        assertThat(proxy.start(true)).isEqualTo(ZProxy.STARTED);
        List<Thread> threads = threads("proxy-closed");
        assertThat(threads).hasSize(1);
        own.close();
        threads.get(0).join();
        assertThat(proxy.status()).isEqualTo(ZProxy.EXITED);
    }

    private static List<Thread> threads(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).toList();
    }
}
