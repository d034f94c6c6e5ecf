package io.zmtp.codec;

import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCountUtil;

/**
 * Several {@link ZmtpMessage}s written to a connection as one object, so a writer with a queue of messages crosses
 * the pipeline once per batch instead of once per message: {@link ZmtpFrameEncoder} frames them one after the other
 * exactly as if each had been written on its own, in order. The batch owns its messages: writing it hands them all
 * to the encoder, which releases each once framed. Like a message it is reference counted: releasing it releases the
 * messages still in it, so a batch dropped anywhere in a pipeline (a closed channel's outbound buffer) leaks nothing.
 *
 * <p>A message that can't be framed (one released too early) is dropped alone: the others go out, and the write's
 * promise fails with the first such cause once the batch is written. Not thread-safe: filled by one thread, then
 * written.
 */
public final class ZmtpMessageBatch extends AbstractReferenceCounted {
    private final ZmtpMessage[] messages;
    private int size;

    /** A batch of up to {@code capacity} messages. */
    public ZmtpMessageBatch(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.messages = new ZmtpMessage[capacity];
    }

    /** Adds a message, which the batch then owns; false, leaving it to the caller, if the batch is full. */
    public boolean add(ZmtpMessage message) {
        if (size == messages.length) {
            return false;
        }
        messages[size++] = message;
        return true;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == messages.length;
    }

    /** The {@code index}th message, still owned by the batch. */
    public ZmtpMessage get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException("index: " + index + ", size: " + size);
        }
        return messages[index];
    }

    /** Takes the {@code index}th message out of the batch (null if taken already): the caller now owns it. */
    public ZmtpMessage take(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException("index: " + index + ", size: " + size);
        }
        ZmtpMessage m = messages[index];
        messages[index] = null;
        return m;
    }

    @Override
    protected void deallocate() {
        for (int i = 0; i < size; i++) {
            ZmtpMessage m = messages[i];
            messages[i] = null;
            if (m != null && m.isAccessible()) {
                ReferenceCountUtil.release(m);
            }
        }
        size = 0;
    }

    @Override
    public ZmtpMessageBatch touch(Object hint) {
        return this;
    }

    @Override
    public String toString() {
        return "ZmtpMessageBatch(" + size + " messages)";
    }
}
