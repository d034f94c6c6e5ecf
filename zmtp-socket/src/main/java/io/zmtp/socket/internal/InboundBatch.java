package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

/**
 * Messages from one read of a connection, handed from the I/O thread to the application as a unit, as libzmq's
 * pipes hand over batches: filled by the I/O thread, then read by one user thread at a time (under the socket lock).
 */
final class InboundBatch {
    private final ZmtpMessage[] items;
    private int size;
    private int next;

    InboundBatch(int capacity) {
        this.items = new ZmtpMessage[capacity];
    }

    /** Empties the batch for reuse; only once every message was taken. */
    void clear() {
        size = 0;
        next = 0;
    }

    void add(ZmtpMessage message) {
        items[size++] = message;
    }

    int capacity() {
        return items.length;
    }

    boolean isFull() {
        return size == items.length;
    }

    int size() {
        return size;
    }

    boolean hasNext() {
        return next < size;
    }

    int remaining() {
        return size - next;
    }

    /** The next message; ownership passes to the caller. */
    ZmtpMessage next() {
        ZmtpMessage m = items[next];
        items[next++] = null;
        return m;
    }

    void releaseRest() {
        while (next < size) {
            next().release();
        }
    }
}
