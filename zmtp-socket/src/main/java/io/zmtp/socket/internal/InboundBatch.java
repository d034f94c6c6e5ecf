package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

/**
 * Messages from one read of a connection, handed from the I/O thread to the application as a unit, as libzmq's
 * pipes hand over batches: filled by one thread, then read by one user thread at a time (under the socket lock).
 * Each message's content length is taken as it is added, by the thread that just had it in hand, so the reader
 * counts bytes without touching the message's frames again.
 */
final class InboundBatch {
    private final ZmtpMessage[] items;
    private final int[] lengths;
    /** Made by an {@link InboundQueue} for its connection's reads, and given back to it once taken. */
    final boolean recyclable;
    private long bytes;
    private int size;
    private int next;

    InboundBatch(int capacity) {
        this(capacity, false);
    }

    InboundBatch(int capacity, boolean recyclable) {
        this.items = new ZmtpMessage[capacity];
        this.lengths = new int[capacity];
        this.recyclable = recyclable;
    }

    /** Empties the batch for reuse; only once every message was taken. */
    void clear() {
        size = 0;
        next = 0;
        bytes = 0;
    }

    void add(ZmtpMessage message) {
        // A message's content is at most maxMessageSize (an int) over tcp and ipc; an inproc one is counted as
        // much of it as an int holds.
        int length = (int) Math.min(Integer.MAX_VALUE, message.contentLength());
        lengths[size] = length;
        items[size++] = message;
        bytes += length;
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

    /** The content bytes of the messages added. */
    long bytes() {
        return bytes;
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

    /** The content length of the message {@link #next} returned last. */
    int lastLength() {
        return lengths[next - 1];
    }

    void releaseRest() {
        while (next < size) {
            next().release();
        }
    }
}
