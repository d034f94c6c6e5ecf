package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A ROUTER's or STREAM's peers by routing id. Keys are buffers, whose {@code equals} and {@code hashCode} compare
 * readable content whatever the buffer's kind, so a message's id frame is looked up as it is: no copy per message
 * sent. Used under the socket's lock.
 */
final class RoutingTable {
    private final Map<ByteBuf, Pipe> byId = new HashMap<>();
    private int nextId = ThreadLocalRandom.current().nextInt();

    /** A generated id, libzmq's scheme: {@code 00} and a u32 counter, so it can't clash with an announced one. */
    byte[] newId() {
        int n = nextId++;
        return new byte[] {0, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    /** The peer with the id in {@code idFrame}'s readable bytes, or null; {@code idFrame} is not changed. */
    Pipe get(ByteBuf idFrame) {
        return byId.get(idFrame);
    }

    Pipe get(byte[] id) {
        return byId.get(Unpooled.wrappedBuffer(id));
    }

    /** Maps {@code id}, which the caller no longer changes (it becomes the key), to {@code pipe}. */
    void put(byte[] id, Pipe pipe) {
        byId.put(Unpooled.wrappedBuffer(id), pipe);
    }

    /** Unmaps {@code pipe}'s routing id if it is still mapped to {@code pipe}. */
    void remove(Pipe pipe) {
        byte[] id = pipe.routingId();
        if (id != null) {
            byId.remove(Unpooled.wrappedBuffer(id), pipe);
        }
    }
}
