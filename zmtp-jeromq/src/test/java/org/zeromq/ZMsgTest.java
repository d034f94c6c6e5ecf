package org.zeromq;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** ZMsg and ZFrame as values, and sent and received over inproc, envelopes included. */
class ZMsgTest {

    @Test
    void wrapAndUnwrapAddAndRemoveAnAddressWithItsDelimiter() {
        ZMsg msg = ZMsg.newStringMsg("body");
        msg.wrap(new ZFrame("address"));
        assertThat(msg.size()).isEqualTo(3);
        assertThat(msg.peekFirst().streq("address")).isTrue();
        assertThat(msg.toArray()[1]).isEqualTo(new ZFrame(""));
        ZFrame address = msg.unwrap();
        assertThat(address.toString()).isEqualTo("address");
        assertThat(msg.size()).isEqualTo(1);
        assertThat(msg.popString()).isEqualTo("body");
        assertThat(msg.pop()).isNull();
        assertThat(msg.unwrap()).isNull();
    }

    @Test
    void pushAddAndAppendPutFramesAtEitherEnd() {
        ZMsg msg = new ZMsg().append("b").append(new byte[] {'c'});
        msg.push("a");
        msg.addLast("d");
        msg.addFirst(new byte[] {'0'});
        assertThat(msg.toString()).isEqualTo("[ 0, a, b, c, d ]");
        assertThat(msg.contentSize()).isEqualTo(5);
        assertThat(msg.getFirst().toString()).isEqualTo("0");
        assertThat(msg.getLast().toString()).isEqualTo("d");
        msg.destroy();
        assertThat(msg.isEmpty()).isTrue();
    }

    @Test
    void duplicateAndEqualityCompareFrameData() {
        ZMsg msg = ZMsg.newStringMsg("x", "y");
        ZMsg copy = msg.duplicate();
        assertThat(copy).isEqualTo(msg).hasSameHashCodeAs(msg);
        copy.add("z");
        assertThat(copy).isNotEqualTo(msg);
        assertThat(new ZMsg().duplicate()).isNull();
    }

    @Test
    void saveAndLoadRoundTrip() throws Exception {
        ZMsg msg = ZMsg.newStringMsg("one", "", "three");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ZMsg.save(msg, new DataOutputStream(out))).isTrue();
        ZMsg loaded = ZMsg.load(new DataInputStream(new ByteArrayInputStream(out.toByteArray())));
        assertThat(loaded).isEqualTo(msg);
    }

    @Test
    void dumpShowsEachFrameAsTextOrHex() {
        ZMsg msg = new ZMsg();
        msg.add("hello");
        msg.add(new byte[] {0, 1, (byte) 0xab});
        StringBuilder out = new StringBuilder();
        msg.dump(out);
        assertThat(out.toString()).contains("[005] hello").contains("[003] 0001AB");
    }

    @Test
    void framesShowAsTextOrHex() {
        ZFrame frame = new ZFrame(new byte[] {(byte) 0xde, (byte) 0xad});
        assertThat(frame.strhex()).isEqualTo("DEAD");
        assertThat(frame.toString()).isEqualTo("DEAD");
        assertThat(new ZFrame("text").toString()).isEqualTo("text");
        assertThat(frame.hasSameData(frame.duplicate())).isTrue();
        frame.destroy();
        assertThat(frame.hasData()).isFalse();
        assertThat(frame.size()).isZero();
    }

    @Test
    void aMessageIsSentAndReceivedWhole() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
            a.bind("inproc://zmsg");
            ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
            b.connect("inproc://zmsg");

            ZMsg msg = ZMsg.newStringMsg("a", "b", "c");
            assertThat(msg.send(a)).isTrue();
            assertThat(msg.isEmpty()).isTrue();
            ZMsg got = ZMsg.recvMsg(b);
            assertThat(got.toString()).isEqualTo("[ a, b, c ]");
            assertThat(ZMsg.recvMsg(b, false)).isNull();
        }
    }

    @Test
    void framesAreSentAndReceivedOneByOne() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
            a.bind("inproc://zframe");
            ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
            b.connect("inproc://zframe");

            assertThat(new ZFrame("first").send(a, ZFrame.MORE)).isTrue();
            ZFrame last = new ZFrame("last");
            assertThat(last.sendAndDestroy(a)).isTrue();
            assertThat(last.hasData()).isFalse();

            ZFrame first = ZFrame.recvFrame(b);
            assertThat(first.streq("first")).isTrue();
            assertThat(first.hasMore()).isTrue();
            // The rest of a message begun frame by frame comes whole from ZMsg.recvMsg.
            ZMsg rest = ZMsg.recvMsg(b);
            assertThat(rest.toString()).isEqualTo("[ last ]");
            assertThat(ZFrame.recvFrame(b, ZFrame.DONTWAIT)).isNull();
        }
    }

    @Test
    void aRouterEnvelopeIsWrappedAndUnwrapped() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket router = ctx.createSocket(SocketType.ROUTER);
            router.bind("inproc://envelope");
            ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
            req.setIdentity("client".getBytes(ZMQ.CHARSET));
            req.connect("inproc://envelope");

            req.send("hello");
            ZMsg request = ZMsg.recvMsg(router);
            ZFrame address = request.unwrap();
            assertThat(address.toString()).isEqualTo("client");
            assertThat(request.popString()).isEqualTo("hello");

            ZMsg reply = ZMsg.newStringMsg("world");
            reply.wrap(address);
            reply.send(router);
            assertThat(req.recvStr()).isEqualTo("world");
        }
    }

    @Test
    void aServerFrameCarriesItsPeersRoutingId() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket server = ctx.createSocket(SocketType.SERVER);
            server.bind("inproc://client-server");
            ZMQ.Socket client = ctx.createSocket(SocketType.CLIENT);
            client.connect("inproc://client-server");

            new ZFrame("request").send(client, 0);
            ZFrame request = ZFrame.recvFrame(server);
            assertThat(request.getRoutingId()).isNotZero();
            ZFrame reply = new ZFrame("reply");
            reply.setRoutingId(request.getRoutingId());
            assertThat(reply.send(server, 0)).isTrue();
            assertThat(client.recvStr()).isEqualTo("reply");
        }
    }

    @Test
    void aRadioFrameReachesTheDishesOfItsGroup() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket radio = ctx.createSocket(SocketType.RADIO);
            radio.bind("inproc://radio");
            ZMQ.Socket dish = ctx.createSocket(SocketType.DISH);
            assertThat(dish.join("news")).isTrue();
            assertThat(dish.join("news")).isFalse();
            assertThat(dish.errno()).isEqualTo(ZMQ.Error.EINVAL.getCode());
            dish.connect("inproc://radio");

            // The JOIN reaches the radio asynchronously: send until a frame arrives.
            ZFrame got = null;
            while (got == null) {
                ZFrame other = new ZFrame("ignored");
                other.setGroup("sport");
                other.send(radio, 0);
                ZFrame news = new ZFrame("headline");
                news.setGroup("news");
                news.send(radio, 0);
                got = ZFrame.recvFrame(dish, ZFrame.DONTWAIT);
                if (got == null) {
                    ZMQ.msleep(1);
                }
            }
            assertThat(got.toString()).isEqualTo("headline");
            assertThat(got.getGroup()).isEqualTo("news");
            assertThat(dish.leave("news")).isTrue();
        }
    }

    /**
     * CLIENT, SERVER and the other single-part types refuse a frame sent with MORE (false, EINVAL) and a message of
     * several frames, as libzmq and JeroMQ do; the socket stays usable.
     */
    @Test
    void singlePartSocketsRefuseMultipartSends() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket server = ctx.createSocket(SocketType.SERVER);
            server.bind("inproc://single-part");
            ZMQ.Socket client = ctx.createSocket(SocketType.CLIENT);
            client.connect("inproc://single-part");

            assertThat(new ZFrame("part").send(client, ZFrame.MORE)).isFalse();
            assertThat(client.errno()).isEqualTo(ZMQ.Error.EINVAL.getCode());
            assertThat(client.sendMore("part")).isFalse();
            assertThat(client.errno()).isEqualTo(ZMQ.Error.EINVAL.getCode());
            ZMsg two = new ZMsg();
            two.add("a");
            two.add("b");
            assertThat(two.send(client)).isFalse();
            assertThat(client.errno()).isEqualTo(ZMQ.Error.EINVAL.getCode());
            assertThat(new ZFrame("part").send(server, ZFrame.MORE)).isFalse();

            assertThat(client.send("whole")).isTrue();
            ZFrame got = ZFrame.recvFrame(server);
            assertThat(got.toString()).isEqualTo("whole");
            assertThat(got.hasMore()).isFalse();
        }
    }

    /** A message appended to itself gets its frames twice (JeroMQ's ZMsgTest does this). */
    @Test
    void aMessageAppendedToItselfDoubles() {
        ZMsg msg = new ZMsg().append((ZMsg) null).append(ZMsg.newStringMsg("a", "b"));
        msg.append(msg);
        assertThat(msg.size()).isEqualTo(4);
        assertThat(msg.popString()).isEqualTo("a");
        assertThat(msg.popString()).isEqualTo("b");
        assertThat(msg.popString()).isEqualTo("a");
    }
}
