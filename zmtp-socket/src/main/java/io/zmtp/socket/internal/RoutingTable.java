package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.collection.IntObjectHashMap;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A ROUTER's or STREAM's peers by routing id. Used under the socket's lock.
 *
 * <p>Ids in libzmq's generated form, {@code 00} and four bytes, are keyed by those four bytes as an int: a ROUTER
 * looks one up for every message it sends, and hashing and comparing a buffer's content took 4% of an echoing
 * ROUTER's CPU. Which map holds an id depends on its bytes alone, whoever chose them, so an announced id of that
 * form is found the same way. Other ids are keyed by buffer, whose {@code equals} and {@code hashCode} compare
 * readable content whatever the buffer's kind, so a message's id frame is looked up as it is: no copy per message.
 */
final class RoutingTable {
    private static final int GENERATED_LENGTH = 5;

    private final IntObjectHashMap<Pipe> byGeneratedId = new IntObjectHashMap<>();
    private final Map<ByteBuf, Pipe> byId = new HashMap<>();
    private int nextId = ThreadLocalRandom.current().nextInt();

    /** A generated id, libzmq's scheme: {@code 00} and a u32 counter, so it can't clash with an announced one. */
    byte[] newId() {
        int n = nextId++;
        return new byte[] {0, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    /** The peer with the id in {@code idFrame}'s readable bytes, or null; {@code idFrame} is not changed. */
    Pipe get(ByteBuf idFrame) {
        int at = idFrame.readerIndex();
        if (idFrame.readableBytes() == GENERATED_LENGTH && idFrame.getByte(at) == 0) {
            return byGeneratedId.get(idFrame.getInt(at + 1));
        }
        return byId.get(idFrame);
    }

    Pipe get(byte[] id) {
        if (isGenerated(id)) {
            return byGeneratedId.get(generatedKey(id));
        }
        return byId.get(Unpooled.wrappedBuffer(id));
    }

    /** Maps {@code id}, which the caller no longer changes (it becomes the key), to {@code pipe}. */
    void put(byte[] id, Pipe pipe) {
        if (isGenerated(id)) {
            byGeneratedId.put(generatedKey(id), pipe);
        } else {
            byId.put(Unpooled.wrappedBuffer(id), pipe);
        }
    }

    /** Unmaps {@code pipe}'s routing id if it is still mapped to {@code pipe}. */
    void remove(Pipe pipe) {
        byte[] id = pipe.routingId();
        if (id == null) {
            return;
        }
        if (isGenerated(id)) {
            int key = generatedKey(id);
            if (byGeneratedId.get(key) == pipe) {
                byGeneratedId.remove(key);
            }
        } else {
            byId.remove(Unpooled.wrappedBuffer(id), pipe);
        }
    }

    private static boolean isGenerated(byte[] id) {
        return id.length == GENERATED_LENGTH && id[0] == 0;
    }

    private static int generatedKey(byte[] id) {
        return (id[1] & 0xff) << 24 | (id[2] & 0xff) << 16 | (id[3] & 0xff) << 8 | id[4] & 0xff;
    }
}
